"""Retained graph with carried state, seen as the in-place error: `retain_graph=True` keeps
each step's graph alive, and a tensor carried into the next step (an RNN's hidden state)
attaches it to the new one, so every backward goes back through all earlier steps. When that
carried chain saved weights (an RNN or LSTM does), the first optimizer step changes them
under the old graph and the next backward fails with the in-place modification error.

This is what "backward through the graph a second time" turns into when silenced with
retain_graph=True. Drop retain_graph=True and detach the carried tensor at the top of each
step (truncated backpropagation through time).
"""

from __future__ import annotations

from dataclasses import replace

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.inplace_modified.evidence import (
    STEP,
    Inplace,
    claim,
    describe_saved,
)
from autograd_doctor.edits.strategies import detach_at_boundary, detach_in_update
from autograd_doctor.source import places

CATEGORY = "retain-graph-carried"
CULPRIT = "h"
CULPRIT_LINE = 9  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
cell = nn.RNNCell(4, 8)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
h = torch.zeros(2, 8)
for step in range(4):
    h = cell(torch.randn(2, 4), h)
    loss = h.pow(2).mean()
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
"""

FIXED = BROKEN.replace("    h = cell(", "    h = h.detach()\n    h = cell(").replace(
    "loss.backward(retain_graph=True)", "loss.backward()")


def match(ev: Inplace) -> Claim | None:
    """The optimizer step changed weights that the kept graph of an earlier step holds."""
    if ev.writer_kind != STEP or ev.step is None or ev.step.site is None or not ev.carried:
        return None
    expression, frame, _ = ev.carried[0]
    placement = places.place(frame, expression)
    carried = [(e, structure) for e, f, structure in ev.carried if f.same_code(frame)]
    site = ev.failing.site
    backward = site.statement if site is not None else None
    release = (site.file, backward) if site is not None and backward is not None else None
    remedy = detach_at_boundary(placement.file, placement.scope, placement.loop, carried,
                                release) if placement else None
    stores = placement.stores_in_loop if placement else []
    update = detach_in_update(placement.file, stores[-1], expression, carried[0][1], release) \
        if placement and stores and len(carried) == 1 else None
    step = ev.step.site
    names = " and ".join(f"`{e}`" for e, _ in carried)
    why = (
        f"{names} is carried from one step into the next while backward keeps each step's "
        f"graph (retain_graph=True), so this backward goes back through the earlier steps' "
        f"graphs, which saved weights that the optimizer step at "
        f"{places.user_path(step.file)}:{step.line} has since changed in place "
        f"(among them {describe_saved(ev)}). retain_graph=True silenced 'backward through "
        f"the graph a second time' and turned it into this error."
    )
    hint = (f"Drop it and detach {names} at the top of each step (truncated backpropagation "
            f"through time).")
    at = (placement.file, stores[-1].lineno) if placement and stores else (step.file, step.line)
    said = claim(ev, CATEGORY, why, hint, expression, "local", at, remedy or update,
                 writer=(step.file, step.line), role="assigned")
    return replace(said, alternatives=(update,) if remedy and update else ())
