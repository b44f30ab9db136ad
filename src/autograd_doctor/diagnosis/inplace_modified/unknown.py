"""Unknown writer: a tensor saved for backward was modified in place, and no optimizer step
and no statement of your code writes it: the write happened inside a call. Library layers
and functions do this: an `inplace=True` argument, a layer that changes its own weight in
forward (`nn.Embedding(max_norm=...)` renormalises the rows it looks up), a helper that
updates a tensor in place.

The report names the modified tensor, the operation that saved it and the versions PyTorch
saw. Find the call that writes it; then either clone the tensor where the other use reads it
(`emb.weight.clone()`, what PyTorch's Embedding documentation recommends), or make the call
work out of place. Writing through `.data` would hide the error and give wrong gradients.
There is no mechanical fix: the write is not in your code.
"""

from __future__ import annotations

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.inplace_modified.evidence import Inplace, describe_saved
from autograd_doctor.graph.walk import node_name
from autograd_doctor.source import places

CATEGORY = "unknown"
CULPRIT = "emb.weight"
CULPRIT_LINE = None  # no line of BROKEN writes it: the embedding does, inside its forward
FALLBACK = True
FIX = None  # the write is inside a library call

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(20, 8, max_norm=1.0)
head = nn.Linear(8, 1)
opt = torch.optim.SGD([*emb.parameters(), *head.parameters()], lr=0.1)
for step in range(3):
    tokens = torch.randint(0, 20, (6,))
    penalty = emb.weight.pow(2).sum()
    loss = head(emb(tokens)).pow(2).mean() + 1e-3 * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("emb.weight.pow(2)", "emb.weight.clone().pow(2)")


def match(ev: Inplace) -> Claim | None:
    if ev.node is None and ev.name is None:
        return None  # nothing seen at all: the report says "undiagnosed"
    saved_by = f" by {node_name(ev.node)}" if ev.node is not None else ""
    versions = (f" (it is at version {ev.version}; backward expected an earlier one)"
                if ev.version is not None else "")
    why = (
        f"{describe_saved(ev)} was saved for backward{saved_by} and then modified in "
        f"place{versions}, but neither an optimizer step nor a statement of your code writes "
        f"it: the write happened inside a call, such as an `inplace=True` argument, a layer "
        f"that changes its own weight in forward (`nn.Embedding(max_norm=...)`), or a helper."
    )
    hint = ("Find that call; clone the tensor where the other use reads it (`.clone()`), or "
            "make the call work out of place. Writing through `.data` would hide the error "
            "and give wrong gradients.")
    culprit = places.culprit(ev.name, ev.kind, None, None, role="written") if ev.name \
        else None
    details: dict[str, object] = {"saved_by": node_name(ev.node)} if ev.node else {}
    return Claim(CATEGORY, why, hint, culprit, places.frame_location(ev.failing.site), None,
                 details)
