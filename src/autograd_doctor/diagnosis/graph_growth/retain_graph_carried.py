"""Retained graph with carried state, seen as growth: `retain_graph=True` keeps each step's
graph alive, and a tensor carried into the next step (a running state) attaches it to the new
one, so every backward goes through all earlier steps again. When the carried chain saves no
weights, nothing fails: each step is slower than the last, memory climbs, and the gradients
include every past step.

This is what "backward through the graph a second time" turns into when silenced with
retain_graph=True. Drop retain_graph=True and detach the carried tensor at the top of each
step.
"""

from __future__ import annotations

from dataclasses import replace

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.graph_growth.evidence import (
    GrowthEvidence,
    claim,
    entry_structure,
    figures,
)
from autograd_doctor.edits.strategies import detach_at_boundary, detach_in_update

CATEGORY = "retain-graph-carried"
CULPRIT = "state"
CULPRIT_LINE = 9  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
proj = nn.Linear(4, 4)
opt = torch.optim.SGD(proj.parameters(), lr=0.01)
state = torch.zeros(2, 4)
for step in range(8):
    state = 0.9 * state + proj(torch.randn(2, 4))
    loss = state.pow(2).mean()
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
"""

FIXED = BROKEN.replace("    state = 0.9", "    state = state.detach()\n    state = 0.9").replace(
    "loss.backward(retain_graph=True)", "loss.backward()")


def match(ev: GrowthEvidence) -> Claim | None:
    g = ev.growth
    if g.kind != "chain" or not ev.retained:
        return None
    placement, store = ev.placement, ev.store
    site = g.record.site
    backward = site.statement if site is not None else None
    release = (site.file, backward) if site is not None and backward is not None else None
    remedy = detach_at_boundary(placement.file, placement.scope, placement.loop,
                                [(g.expression, g.structure)], release) if placement else None
    update = detach_in_update(store[0], store[1], store[2], entry_structure(ev), release) \
        if store else None
    why = (
        f"`{g.expression}` is carried from one step into the next while backward keeps the "
        f"graph (retain_graph=True), so every backward goes through all earlier steps again: "
        f"{figures(g)}. Each step gets slower, memory climbs, and the gradients include every "
        f"past step."
    )
    hint = f"Drop retain_graph=True and detach `{g.expression}` at the top of each step."
    at = (store[0], store[1].lineno) if store else None
    said = claim(g, CATEGORY, why, hint, at, remedy or update, store[2] if store else "")
    return replace(said, alternatives=(update,) if remedy and update else ())
