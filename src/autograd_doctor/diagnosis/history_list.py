"""History list: a tensor with history is appended to a list every step (predictions kept
for an epoch-end metric, losses kept for a plot), so the list holds every step's graph.

Each element keeps the nodes (and any tensors they still save) of the step that made it;
memory grows with every step until the list is dropped.

Store what the list is for, without history: `.detach()` (or `.item()` for a scalar).
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.growth import Growth
from autograd_doctor.diagnosis.growth_common import figures, growth_finding
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy, detached, replace_node
from autograd_doctor.graph import source

ERROR = "graph-growth"
CATEGORY = "history-list"
CULPRIT = "preds"

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


def match(g: Growth) -> Diagnosis | None:
    if g.kind != "list":
        return None
    # Appended in the frame's function, or in any function of that file (a helper).
    tree = source.parse(g.frame.file)
    scopes = [source.scope_of(g.frame.file, g.frame.function, g.frame.first_line)]
    scopes += [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)] if tree else []
    stores: list[tuple[ast.stmt, ast.expr]] = []
    for scope in scopes:
        if scope is not None and not stores:
            stores = source.container_stores(scope, g.expression)
    remedy = None
    at = None
    if stores:
        stmt, value = stores[-1]
        at = (g.frame.file, stmt.lineno)
        remedy = Remedy("detach-on-store", f"store the values in {g.expression} without "
                        "their graph", g.frame.file, stmt.lineno,
                        (replace_node(g.frame.file, value,
                                      detached(source.segment(g.frame.file, value))),))
    message = (
        f"`{g.expression}` gets one tensor with history per step, so it keeps every step's "
        f"graph alive: {figures(g)}. Store the values without their graph "
        f"(`.detach()`, or `.item()` for a scalar)."
    )
    return growth_finding(g, CATEGORY, message, at, remedy)
