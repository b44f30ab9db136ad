"""Carried state, seen as growth: a tensor computed in one step feeds the next, and no
backward call ever frees the graph behind it (backward runs on a detached copy of the loss,
or on something else), so it keeps every step's graph.

Nothing fails: memory grows with every step. Detach the carried tensor at the top of each
step, as for the error "backward through the graph a second time" (if backward is called on a
detached copy of the loss, fix that first: the model learns nothing).
"""

from __future__ import annotations

from dataclasses import replace

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.graph_growth.evidence import (
    CARRIED,
    GrowthEvidence,
    claim,
    entry_structure,
    figures,
)
from autograd_doctor.edits.strategies import detach_at_boundary, detach_in_update

CATEGORY = "carried-state"
CULPRIT = "h"
CULPRIT_LINE = 11  # line of BROKEN

# An echo state network: a fixed random reservoir, only the readout is trained. The
# reservoir's weights still require grad, so the carried state keeps every step's graph.
BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
reservoir = nn.RNNCell(3, 32)
readout = nn.Linear(32, 1)
opt = torch.optim.SGD(readout.parameters(), lr=0.05)
h = torch.zeros(4, 32)
for step in range(10):
    u, target = torch.randn(4, 3), torch.randn(4, 1)
    h = reservoir(u, h)
    loss = (readout(h.detach()) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("    h = reservoir(", "    h = h.detach()\n    h = reservoir(")


def match(ev: GrowthEvidence) -> Claim | None:
    g = ev.growth
    if g.kind != "chain" or ev.retained or ev.storage != CARRIED:
        return None
    placement, store = ev.placement, ev.store
    if placement is None:
        return None
    remedy = detach_at_boundary(placement.file, placement.scope, placement.loop,
                                [(g.expression, g.structure)])
    update = detach_in_update(store[0], store[1], store[2], entry_structure(ev)) \
        if store else None
    why = (
        f"`{g.expression}` is carried from one step into the next and no backward call ever "
        f"frees the graph behind it, so it keeps every step's graph: {figures(g)}."
    )
    hint = ("Detach it at the top of each step. (If backward is called on a detached copy of "
            "the loss, that is the first thing to fix.)")
    at = (store[0], store[1].lineno) if store else None
    said = claim(g, CATEGORY, why, hint, at, remedy or update, store[2] if store else "")
    return replace(said, alternatives=(update,) if remedy and update else ())
