"""Retained graph with carried state: `retain_graph=True` keeps each step's graph alive and
a tensor carried into the next step attaches it to the new one, so every backward goes
through all earlier steps again.

This is what the "backward through the graph a second time" error turns into when silenced
with retain_graph=True: no error, but each step is slower than the last, memory climbs, and
gradients include every past step. (When the carried chain saves weights, the first
optimizer step turns it into the in-place error instead.)

Drop retain_graph=True and detach the carried tensor at the top of each step.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.carried_state import detach_at_top
from autograd_doctor.diagnosis.growth import Growth
from autograd_doctor.diagnosis.growth_common import figures, growth_finding
from autograd_doctor.diagnosis.remedy import Diagnosis, Operation, Remedy, replace_node
from autograd_doctor.graph import source

ERROR = "graph-growth"
CATEGORY = "retain-graph-carried"
CULPRIT = "state"

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


def match(g: Growth) -> Diagnosis | None:
    if g.kind != "chain" or not g.in_backward or not g.record.retained:
        return None
    placement = places.place(g.frame, g.expression)
    stores = placement.stores_in_loop if placement else []
    remedy = _remedy(g, placement) if placement else None
    message = (
        f"`{g.expression}` is carried from one step into the next while backward keeps the "
        f"graph (retain_graph=True), so every backward goes through all earlier steps again: "
        f"{figures(g)}. Each step gets slower, memory climbs, and the gradients include every "
        f"past step. Drop retain_graph=True and detach `{g.expression}` at the top of each "
        f"step."
    )
    at = (placement.file, stores[-1].lineno) if placement and stores else None
    return growth_finding(g, CATEGORY, message, at, remedy)


def _remedy(g: Growth, placement: places.Placement) -> Remedy | None:
    top = detach_at_top(placement, [(g.expression, "T")])
    if top is None:
        return None
    ops: list[Operation] = list(top.operations)
    site = g.record.site
    scope = source.scope_of(site.file, site.function, site.first_line) if site else None
    stmt = source.statement_at(scope, site.line) if scope is not None and site else None
    call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call)
                 and any(k.arg == "retain_graph" for k in n.keywords)), None) if stmt else None
    if call is not None and site is not None:
        args = [source.segment(site.file, a) for a in call.args]
        args += [source.segment(site.file, k) for k in call.keywords if k.arg != "retain_graph"]
        ops.append(replace_node(site.file, call,
                                f"{source.segment(site.file, call.func)}({', '.join(args)})"))
    return Remedy("detach-at-boundary", f"detach {g.expression} each step and drop "
                  "retain_graph=True", top.file, top.line, tuple(ops))
