"""Saved-tensor access: a tensor autograd saved for the backward pass is read after a
backward call freed it (`loss.grad_fn._saved_self`, `ctx.saved_tensors` on a custom
Function's context kept for logging).

Backward frees what each node saved as soon as it has used it, so these reads only work
before backward. PyTorch's message suggests `retain_graph=True`, which would keep the whole
graph alive only so that this read works. Read the saved tensor before calling backward, or
keep a reference to the tensor itself when you create it.
"""

from __future__ import annotations

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.saved_tensor_access.evidence import Access
from autograd_doctor.edits.operations import Move, Remedy
from autograd_doctor.edits.strategies import retain_graph
from autograd_doctor.source import places, reading

CATEGORY = "saved-tensor-access"
CULPRIT = "err.grad_fn._saved_self"
CULPRIT_LINE = 13  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    err = (model(x) - y).pow(2)
    loss = err.mean()
    opt.zero_grad()
    loss.backward()
    print("largest residual", err.grad_fn._saved_self.abs().max().item())
    opt.step()
"""

_READ = '    print("largest residual", err.grad_fn._saved_self.abs().max().item())\n'
FIXED = BROKEN.replace("    loss.backward()\n" + _READ, _READ + "    loss.backward()\n")


def match(access: Access) -> Claim | None:
    freeing = access.freeing
    where = (f"the backward call at {places.user_path(freeing.site.file)}:{freeing.site.line}"
             if freeing and freeing.site else "an earlier backward call")
    why = (
        f"`{access.expression}` reads a tensor that autograd saved for the backward pass, "
        f"after {where} had used and freed it."
    )
    hint = ("Read it before calling backward (or keep your own reference to the tensor when "
            "you create it). Where the read cannot move (a report or hook that runs later), "
            "retain_graph=True on that backward call keeps the graph, and its memory, until "
            "the next step drops it.")
    culprit = places.culprit(access.expression, "expression", access.frame.file,
                             access.frame.line, role="read")
    return Claim(CATEGORY, why, hint, culprit, None,
                 places.frame_location(freeing.site) if freeing else None,
                 {"access": places.location(access.frame.file, access.frame.line).to_dict()},
                 _read_first(access), _retain(access))


def _retain(access: Access) -> tuple[Remedy, ...]:
    site = access.freeing.site if access.freeing else None
    stmt = site.statement if site is not None else None
    remedy = retain_graph(site.file, stmt, "keep the graph for the later read "
                          "(retain_graph=True on the backward call)") \
        if site is not None and stmt is not None else None
    return (remedy,) if remedy else ()


def _read_first(access: Access) -> Remedy | None:
    """Move the statement that reads (or calls what reads) the saved tensor to just before
    the backward call, when both sit in the same block."""
    freeing = access.freeing
    if freeing is None or freeing.site is None:
        return None
    site = freeing.site
    for frame in access.frames:
        if not frame.same_code(site) or frame.line <= site.line:
            continue
        scope = frame.scope
        if scope is None:
            return None
        reader = reading.statement_at(scope, frame.line)
        backward = reading.statement_at(scope, site.line)
        if reader is None or backward is None:
            return None
        # The read may sit in an `if` (log once per epoch): move that whole statement.
        reader = reading.sibling_holding(scope, backward, reader)
        if reader is None:
            return None
        return Remedy(
            strategy="read-before-backward",
            description="read the saved tensor before backward frees it",
            file=frame.file,
            line=backward.lineno,
            operations=(Move(frame.file, reader.lineno, reader.end_lineno or reader.lineno,
                             backward.lineno, reading.indent_of(frame.file, backward.lineno)),),
        )
    return None

