"""Accumulated loss: a running loss total kept as a tensor and backwarded.

`total_loss += loss` keeps every iteration's graph attached to `total_loss`. Backwarding
the total in the loop reaches the graphs of earlier iterations, which their own backward
already freed.

`retain_graph=True` would make each step backpropagate through every earlier batch again
(gradients counted many times over, time and memory growing each step). Backward the
loss of the current batch, and keep the running total as a Python number with `.item()`
for logging.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.common import (
    accumulates,
    backward_reads,
    describe_call,
    finding,
    item_calls,
)
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy, Replace, replace_node
from autograd_doctor.diagnosis.stale import Evidence, same_step
from autograd_doctor.graph import source

ERROR = "backward-twice"
CATEGORY = "accumulated-loss"
CULPRIT = "total_loss"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total_loss = 0
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y)
    total_loss += loss
    opt.zero_grad()
    total_loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("total_loss += loss\n", "total_loss += loss.item()\n").replace(
    "total_loss.backward()", "loss.backward()")


def match(ev: Evidence) -> Diagnosis | None:
    if ev.root_stale or same_step(ev) or not ev.suspects:
        return None
    suspect = ev.suspects[0]
    if suspect.kind not in ("local", "parameter"):
        return None
    placement = places.place(suspect.frame, suspect.expression)
    if placement is None or placement.loop is None:
        return None
    sums = [s for s in placement.stores_in_loop if accumulates(s, suspect.expression)]
    if not sums or not backward_reads(ev, suspect.expression):
        return None
    store = sums[-1]
    term = _term(store, suspect.expression)
    remedy = _remedy(ev, placement.file, store, term, suspect.expression)
    message = (
        f"`{suspect.expression}` adds up the loss across iterations as a tensor "
        f"({places.user_path(placement.file)}:{store.lineno}), so it still holds the "
        f"graphs of earlier batches. {describe_call(ev, 'freeing').capitalize()} freed "
        f"those graphs, and {describe_call(ev, 'failing')} on the total reached them again. "
        f"Backward the current batch's loss and accumulate the total with `.item()`. "
        f"retain_graph=True would backpropagate through every earlier batch again at each "
        f"step: gradients counted many times over, time and memory growing without bound."
    )
    return finding(ev, CATEGORY, message, suspect, (placement.file, store.lineno), remedy)


def _term(store: ast.stmt, expression: str) -> ast.expr:
    if isinstance(store, ast.AugAssign):
        return store.value
    value = store.value  # type: ignore[attr-defined]
    term: ast.expr = value.right if source.text(value.left) == expression else value.left
    return term


def _remedy(ev: Evidence, file: str, store: ast.stmt, term: ast.expr,
            expression: str) -> Remedy | None:
    if not isinstance(term, ast.Name):
        return None  # no name to backward instead; the message says what to do
    ops: list[Replace] = [replace_node(file, term, f"{term.id}.item()")]
    site = ev.failing.site
    scope = source.scope_of(site.file, site.function, site.first_line) if site else None
    stmt = source.statement_at(scope, site.line) if scope is not None and site else None
    receiver = source.call_receiver(stmt, "backward") if stmt is not None else None
    if receiver is not None and source.text(receiver) == expression and site is not None:
        ops.append(replace_node(site.file, receiver, term.id))
    ops += [replace_node(file, call, expression) for call in item_calls(file, expression)]
    return Remedy(
        strategy="accumulate-item",
        description=f"backward {term.id} and accumulate {expression} with .item()",
        file=file,
        line=store.lineno,
        operations=tuple(ops),
    )
