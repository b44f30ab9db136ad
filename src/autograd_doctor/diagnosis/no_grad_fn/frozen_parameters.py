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

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.no_grad_fn import LEAF_TRAP
from autograd_doctor.diagnosis.no_grad_fn.evidence import (
    FROZEN,
    Cut,
    as_passed,
    claim,
    where,
)
from autograd_doctor.edits.operations import Delete, Insert, Operation, Remedy, replace_node
from autograd_doctor.graph.objects import optimizers_in, param_ids
from autograd_doctor.source import reading

CATEGORY = "frozen-parameters"
CULPRIT = "model"
CULPRIT_LINE = 7  # line of BROKEN

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


def match(cut: Cut) -> Claim | None:
    if FROZEN not in cut.points:
        return None
    remedy = _unfreeze(cut)
    why = (
        f"Every parameter of `{cut.name}` has requires_grad=False (frozen at "
        f"{where(cut.file, cut.stmt.lineno)}), so the loss has no history to backward "
        f"through."
    )
    hint = (f"Freeze only what should stay fixed; the parameters handed to the optimizer must "
            f"require gradients. {LEAF_TRAP}")
    return claim(cut, CATEGORY, why, hint, remedy, cut.file, cut.stmt.lineno)


def _unfreeze(cut: Cut) -> Remedy | None:
    """Unfreeze what the optimizer trains, right after the freezing loop (or drop the loop
    when the optimizer trains everything it froze)."""
    built = _optimizer_params(cut)
    loop = cut.points[FROZEN]
    if built is None:
        return _narrowed(cut)
    if not isinstance(loop, (ast.For, ast.stmt)):
        return None
    end = (loop.end_lineno or loop.lineno)
    ops: tuple[Operation, ...]
    if _frozen_set(cut) == built:
        ops = (Delete(cut.file, loop.lineno, end),)
    else:
        ops = (Insert(cut.file, end + 1, f"for p in {built}:\n    p.requires_grad = True",
                      reading.indent_of(cut.file, loop.lineno)),)
    return Remedy("unfreeze", "let the optimizer's parameters require gradients", cut.file,
                  loop.lineno, ops)


def _narrowed(cut: Cut) -> Remedy | None:
    """A loop that freezes all of a model (`for p in model.parameters()`) when the optimizer
    holds some of its parts whole (the head): the freeze meant the one other part (the
    encoder), so it iterates over that part alone."""
    loop = cut.points[FROZEN]
    if not isinstance(loop, ast.For):
        return None
    call = loop.iter
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or \
            call.func.attr != "parameters" or call.args or not cut.modules:
        return None
    held = {k for opt in optimizers_in(cut.failure.scopes()) for k in param_ids(opt)}
    model = max((m for _, m in cut.modules), key=lambda m: sum(1 for _ in m.parameters()))
    parts = [(n, {id(p) for p in c.parameters()}) for n, c in model.named_children()]
    parts = [(n, ids) for n, ids in parts if ids]
    trained = [n for n, ids in parts if ids <= held]
    rest = [n for n, ids in parts if not ids & held]
    whole = {id(p) for p in model.parameters()}
    if not trained or len(rest) != 1 or len(trained) + 1 != len(parts) or \
            whole != set().union(*(ids for _, ids in parts)):
        return None
    part = f"[{rest[0]}]" if rest[0].isdigit() else f".{rest[0]}"
    owner = reading.segment(cut.file, call.func.value)
    return Remedy("unfreeze", f"freeze {owner}{part} only, not the parts the optimizer trains",
                  cut.file, loop.lineno,
                  (replace_node(cut.file, call, f"{owner}{part}.parameters()"),))


def _optimizer_params(cut: Cut) -> str | None:
    """The expression the optimizer was built from (`model.head.parameters()`), where the
    freezing happened or in a function still running (the `main()` that built it)."""
    scopes = cut.failure.scopes()
    files = dict.fromkeys([cut.file] + [f.f_code.co_filename for f in cut.failure.frames])
    # The function that failed first (its optimizer is the one stepping), then whole files.
    where: list[tuple[str, ast.AST]] = [(cut.frame.f_code.co_filename, cut.scope)] \
        if cut.frame is not None else []
    for file in files:
        parsed = reading.parse(file)
        if parsed is not None:
            where.append((file, parsed))
    for file, tree in where:
        for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.Assign)):
            name = reading.text(stmt.targets[0])
            value = next((s[name] for s in scopes if name in s), None)
            if isinstance(value, torch.optim.Optimizer) and isinstance(stmt.value, ast.Call) \
                    and stmt.value.args:
                built = reading.segment(file, stmt.value.args[0])
                # Said where the freezing loop is, it must mean the same there: the
                # optimizer's model as the freezing function was handed it.
                root = built.split(".", 1)[0]
                if file == cut.file:
                    passed = as_passed(file, cut.stmt, tree, root)
                    return passed + built[len(root):]
                return built if built == _frozen_set(cut) else None
    return None


def _frozen_set(cut: Cut) -> str:
    loop = cut.points[FROZEN]
    return reading.text(loop.iter) if isinstance(loop, ast.For) else ""
