"""Accumulated tensor: a running total (or moving average) is kept as a tensor, so each
step's graph stays attached to it and memory grows with every step, without an error.

`total_loss += loss` looks like bookkeeping, but `loss` carries its graph: the total links
every step's loss (and the nodes behind it) into one chain that is never freed. This is the
"don't accumulate history across your training loop" item of PyTorch's FAQ.

Accumulate plain numbers: `total_loss += loss.item()`.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.carried_state import running_estimate
from autograd_doctor.diagnosis.common import accumulates, item_calls
from autograd_doctor.diagnosis.growth import Growth
from autograd_doctor.diagnosis.growth_common import figures, growth_finding
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy, replace_node
from autograd_doctor.graph import source

ERROR = "graph-growth"
CATEGORY = "accumulated-tensor"
CULPRIT = "total_loss"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total_loss = 0
for step in range(8):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss
print(f"mean loss {total_loss.item() / 8:.4f}")
"""

FIXED = BROKEN.replace("total_loss += loss\n", "total_loss += loss.item()\n").replace(
    "total_loss.item() / 8", "total_loss / 8")


def match(g: Growth) -> Diagnosis | None:
    if g.kind != "chain" or (g.in_backward and g.record.retained):
        return None
    store = _update(g)
    if store is None:
        return None  # not a running total: a carried state (carried-state)
    remedy = _item(store) if store else None
    message = (
        f"`{g.expression}` is kept as a tensor and updated every step from tensors that "
        f"carry their graph, so it holds every step's graph: {figures(g)}. Nothing errors, "
        f"but memory grows with every step. Accumulate plain numbers with `.item()`."
    )
    at = (store[0], store[1].lineno) if store else None
    return growth_finding(g, CATEGORY, message, at, remedy)


def _update(g: Growth) -> tuple[str, ast.stmt] | None:
    """The statement that adds to the running value, in the frame's scope or its class."""
    scopes: list[ast.AST] = []
    placement = places.place(g.frame, g.expression)
    if placement is not None:
        scopes.append(placement.scope)
    tree = source.parse(g.frame.file)
    if tree is not None:
        scopes.append(tree)
    name = g.expression
    for scope in scopes:
        for stmt in (n for n in ast.walk(scope) if isinstance(n, (ast.Assign, ast.AugAssign))):
            if accumulates(stmt, name) or running_estimate(stmt, name):
                return g.frame.file, stmt
    return None


def _item(store: tuple[str, ast.stmt]) -> Remedy | None:
    file, stmt = store
    value = stmt.value  # type: ignore[attr-defined]
    target = source.text(stmt.targets[0] if isinstance(stmt, ast.Assign)
                         else stmt.target)  # type: ignore[attr-defined]
    terms = [value] if isinstance(stmt, ast.AugAssign) else [
        v for v in (value.left, value.right) if target not in source.names_in(v)]
    ops = []
    for term in terms:
        named = [n for n in ast.walk(term) if isinstance(n, ast.Name)
                 and isinstance(n.ctx, ast.Load)]
        node = named[0] if len(named) == 1 and not isinstance(term, ast.Call) else term
        text = source.segment(file, node)
        wrapped = text if isinstance(node, (ast.Name, ast.Attribute, ast.Call)) else f"({text})"
        ops.append(replace_node(file, node, f"{wrapped}.item()"))
    ops += [replace_node(file, call, target) for call in item_calls(file, target)]
    if not ops:
        return None
    return Remedy("accumulate-item", f"accumulate {target} as a number with .item()", file,
                  stmt.lineno, tuple(ops))
