"""Retained graph with carried state: `retain_graph=True` keeps each step's graph alive and
a tensor carried into the next step (an RNN's hidden state, a running state) attaches it to
the new one, so every backward goes through all earlier steps again.

This is what the "backward through the graph a second time" error turns into when silenced
with retain_graph=True. It shows one of two ways. When the carried chain saves weights (an
LSTM does), the first optimizer step changes them under the old graph and the next backward
fails with the in-place modification error. When it saves none, nothing fails: each step is
slower than the last, memory climbs, and the gradients include every past step.

Drop retain_graph=True and detach the carried tensor at the top of each step.
"""

from __future__ import annotations

import ast

from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.carried_state import detach_at_top
from autograd_doctor.diagnosis.growth import Growth
from autograd_doctor.diagnosis.growth_common import figures, growth_finding
from autograd_doctor.diagnosis.inplace_common import describe_saved, inplace_finding
from autograd_doctor.diagnosis.remedy import Diagnosis, Operation, Remedy, replace_node
from autograd_doctor.diagnosis.versions import Inplace
from autograd_doctor.graph import source

ERROR = ("graph-growth", "inplace-modified")
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


def match(ev: Growth | Inplace) -> Diagnosis | None:
    if isinstance(ev, Inplace):
        return _broke(ev)
    g = ev
    if g.kind != "chain" or not g.in_backward or not g.record.retained:
        return None
    placement = places.place(g.frame, g.expression)
    stores = placement.stores_in_loop if placement else []
    remedy = _remedy(g.record, placement, [(g.expression, "T")]) if placement else None
    message = (
        f"`{g.expression}` is carried from one step into the next while backward keeps the "
        f"graph (retain_graph=True), so every backward goes through all earlier steps again: "
        f"{figures(g)}. Each step gets slower, memory climbs, and the gradients include every "
        f"past step. Drop retain_graph=True and detach `{g.expression}` at the top of each "
        f"step."
    )
    at = (placement.file, stores[-1].lineno) if placement and stores else None
    return growth_finding(g, CATEGORY, message, at, remedy)


def _broke(ev: Inplace) -> Diagnosis | None:
    """The same cause, seen as the in-place error: the optimizer step changed weights that
    the kept graph of an earlier step still holds."""
    if ev.step is None or ev.step.site is None or not ev.carried:
        return None
    expression, frame, _ = ev.carried[0]
    placement = places.place(frame, expression)
    carried = [(e, structure) for e, f, structure in ev.carried if f.same_code(frame)]
    remedy = _remedy(ev.failing, placement, carried) if placement else None
    stores = placement.stores_in_loop if placement else []
    step = ev.step.site
    names = " and ".join(f"`{e}`" for e, _ in carried)
    message = (
        f"{names} is carried from one step into the next while backward keeps each step's "
        f"graph (retain_graph=True), so this backward goes back through the earlier steps' "
        f"graphs, which saved weights that the optimizer step at "
        f"{places.user_path(step.file)}:{step.line} has since changed in place "
        f"(among them {describe_saved(ev)}). retain_graph=True silenced 'backward through "
        f"the graph a second time' and turned it into this error. Drop it and detach "
        f"{names} at the top of each step (truncated backpropagation through time)."
    )
    at = (placement.file, stores[-1].lineno) if placement and stores else (step.file, step.line)
    diagnosis = inplace_finding(ev, CATEGORY, message, expression, "local", at, remedy)
    diagnosis.finding.details["writer"] = places.location(step.file, step.line).to_dict()
    return diagnosis


def _remedy(record: BackwardRecord, placement: places.Placement,
            carried: list[tuple[str, str]]) -> Remedy | None:
    top = detach_at_top(placement, carried)
    if top is None:
        return None
    ops: list[Operation] = list(top.operations)
    site = record.site
    scope = source.scope_of(site.file, site.function, site.first_line) if site else None
    stmt = source.statement_at(scope, site.line) if scope is not None and site else None
    call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call)
                 and any(k.arg == "retain_graph" for k in n.keywords)), None) if stmt else None
    if call is not None and site is not None:
        args = [source.segment(site.file, a) for a in call.args]
        args += [source.segment(site.file, k) for k in call.keywords if k.arg != "retain_graph"]
        ops.append(replace_node(site.file, call,
                                f"{source.segment(site.file, call.func)}({', '.join(args)})"))
    names = " and ".join(e for e, _ in carried)
    return Remedy("detach-at-boundary", f"detach {names} each step and drop retain_graph=True",
                  top.file, top.line, tuple(ops))
