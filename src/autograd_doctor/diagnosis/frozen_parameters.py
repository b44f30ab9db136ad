"""Frozen parameters: every parameter of the model has `requires_grad=False`, so nothing
the loss depends on can receive a gradient.

Usually a freezing loop meant for the backbone ran over `model.parameters()`. The optimizer
then holds parameters that can never learn.

Freeze only what should stay fixed; at the least, the parameters handed to the optimizer
must require gradients.
"""

from __future__ import annotations

import ast

import torch

from autograd_doctor.diagnosis.cut import Cut
from autograd_doctor.diagnosis.cut_common import LEAF_TRAP, cut_finding, where
from autograd_doctor.diagnosis.remedy import Delete, Diagnosis, Insert, Operation, Remedy
from autograd_doctor.graph import source

ERROR = "no-grad-fn"
CATEGORY = "frozen-parameters"
CULPRIT = "model"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
for p in model.parameters():
    p.requires_grad = False
opt = torch.optim.SGD(model[2].parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("opt = torch.optim", "for p in model[2].parameters():\n"
                       "    p.requires_grad = True\nopt = torch.optim")


def match(cut: Cut) -> Diagnosis | None:
    if cut.category != CATEGORY:
        return None
    remedy = _unfreeze(cut)
    message = (
        f"Every parameter of `{cut.name}` has requires_grad=False (frozen at "
        f"{where(cut.file, cut.stmt.lineno)}), so the loss has no history to backward "
        f"through. Freeze only what should stay fixed; the parameters handed to the "
        f"optimizer must require gradients. {LEAF_TRAP}"
    )
    return cut_finding(cut, message, remedy, cut.file, cut.stmt.lineno)


def _unfreeze(cut: Cut) -> Remedy | None:
    """Unfreeze what the optimizer trains, right after the freezing loop (or drop the loop
    when the optimizer trains everything it froze)."""
    built = _optimizer_params(cut)
    loop = cut.at
    if built is None or not isinstance(loop, (ast.For, ast.stmt)):
        return None
    end = (loop.end_lineno or loop.lineno)
    ops: tuple[Operation, ...]
    frozen = source.text(loop.iter) if isinstance(loop, ast.For) else ""
    if frozen == built:
        ops = (Delete(cut.file, loop.lineno, end),)
    else:
        ops = (Insert(cut.file, end + 1, f"for p in {built}:\n    p.requires_grad = True",
                      source.indent_of(cut.file, loop.lineno)),)
    return Remedy("unfreeze", "let the optimizer's parameters require gradients", cut.file,
                  loop.lineno, ops)


def _optimizer_params(cut: Cut) -> str | None:
    """The expression the optimizer was built from (`model.head.parameters()`)."""
    tree = source.parse(cut.file)
    frame = cut.frame
    if tree is None or frame is None:
        return None
    scopes = [frame.f_locals, frame.f_globals]
    for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.Assign)):
        name = source.text(stmt.targets[0])
        value = next((s[name] for s in scopes if name in s), None)
        if isinstance(value, torch.optim.Optimizer) and isinstance(stmt.value, ast.Call) \
                and stmt.value.args:
            return source.segment(cut.file, stmt.value.args[0])
    return None
