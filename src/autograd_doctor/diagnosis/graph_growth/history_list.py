"""History list: a tensor with history is appended to a list every step (predictions kept
for an epoch-end metric, losses kept for a plot), so the list holds every step's graph.

Each element keeps the nodes (and any tensors they still save) of the step that made it;
memory grows with every step until the list is dropped.

Store what the list is for, without history: `.detach()` (or `.item()` for a scalar).
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.graph_growth.evidence import LIST, GrowthEvidence, claim, figures
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import Remedy, replace_node
from autograd_doctor.source import reading

CATEGORY = "history-list"
CULPRIT = "preds"
CULPRIT_LINE = 10  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
preds = []
for step in range(8):
    out = model(torch.randn(8, 4))
    preds.append(out)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"mean prediction {torch.cat(preds).mean().item():.4f}")
"""

FIXED = BROKEN.replace("preds.append(out)", "preds.append(out.detach())")


def match(ev: GrowthEvidence) -> Claim | None:
    g = ev.growth
    if ev.storage != LIST:
        return None
    # Appended in the frame's function, or in any function of that file (a helper).
    tree = reading.parse(g.frame.file)
    scopes = [reading.scope_of(g.frame.file, g.frame.function, g.frame.first_line)]
    scopes += [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)] if tree else []
    stores: list[tuple[ast.stmt, ast.expr]] = []
    for scope in scopes:
        if scope is not None and not stores:
            stores = reading.container_stores(scope, g.expression)
    remedy = None
    at = None
    if stores:
        stmt, value = stores[-1]
        at = (g.frame.file, stmt.lineno)
        remedy = Remedy("detach-on-store", f"store the values in {g.expression} without "
                        "their graph", g.frame.file, stmt.lineno,
                        (replace_node(g.frame.file, value,
                                      detached(reading.segment(g.frame.file, value))),))
    why = (
        f"`{g.expression}` gets one tensor with history per step, so it keeps every step's "
        f"graph alive: {figures(g)}."
    )
    hint = "Store the values without their graph (`.detach()`, or `.item()` for a scalar)."
    return claim(g, CATEGORY, why, hint, at, remedy)
