"""Detached loss: backward was called on a detached copy of the loss
(`loss.clone().detach()` with `requires_grad=True`, or `torch.tensor(loss.item(),
requires_grad=True)`), so the call succeeds and no gradient reaches the model.

This is a folk fix for "backward through the graph a second time": the copy is a new leaf,
connected to nothing, so backward has nothing to free and nothing to train. The model stops
learning while the loss curve may still move (from the data, not the weights).

Backward the original loss, and fix whatever error made the copy look necessary
(`autograd-doctor run` names it).
"""

from __future__ import annotations

import ast

from autograd_doctor.capture.ledger import FrameInfo
from autograd_doctor.diagnosis.gradients import NoGrad
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy, replace_node
from autograd_doctor.diagnosis.rewrapped import unwrap
from autograd_doctor.diagnosis.silent_common import (
    backward_statement,
    last_backward,
    silent_finding,
    summary,
)
from autograd_doctor.graph import source

ERROR = "silent-no-grad"
CATEGORY = "detached-loss"
CULPRIT = "model"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss_copy = loss.clone().detach()
    loss_copy.requires_grad = True
    opt.zero_grad()
    loss_copy.backward()
    opt.step()
"""

FIXED = BROKEN.replace("    loss_copy.backward()", "    loss.backward()")

_COPY = ("clone", "detach", "requires_grad_", "item", "data")


def match(ev: NoGrad) -> Diagnosis | None:
    record = last_backward(ev)
    if not ev.alarm or record is None or not record.root_is_leaf:
        return None
    found = backward_statement(record)
    remedy, made = _original(found) if found else (None, None)
    message = (
        f"{summary(ev)}: backward is called on a detached copy of the loss (a new leaf "
        f"tensor connected to nothing), so it runs without error and trains nothing. "
        f"Backward the original loss; if that raised an error, that error is the one to fix "
        f"(run autograd-doctor on it again). The same goes for `torch.tensor(loss.item(), "
        f"requires_grad=True)`."
    )
    return silent_finding(ev, CATEGORY, message, made, remedy)


def _original(found: tuple[FrameInfo, ast.stmt]
              ) -> tuple[Remedy | None, tuple[str, int] | None]:
    site, stmt = found
    file = site.file
    receiver = source.call_receiver(stmt, "backward")
    scope = source.scope_of(site.file, site.function, site.first_line)
    if receiver is None or scope is None:
        return None, None
    name = source.text(receiver)
    stores = [s for s in source.stores(scope, name) if s.lineno < stmt.lineno
              and isinstance(s, ast.Assign)]
    if not stores:
        return None, None
    store = stores[-1]
    value = store.value
    original = _strip_copy(value)
    if original is not None:
        # `copy = loss.clone().detach()` -> backward `loss` where the copy was backwarded.
        op = replace_node(file, receiver, source.segment(file, original))
    else:
        wrapped = next((n for n in ast.walk(value) if isinstance(n, ast.Call)
                        and unwrap(n) is not None), None)
        if wrapped is None:
            return None, (file, store.lineno)
        inner = unwrap(wrapped)
        assert inner is not None
        # `loss = torch.tensor(f(x).item(), requires_grad=True)` -> `loss = f(x)`.
        op = replace_node(file, wrapped, source.segment(file, inner))
    return Remedy("backward-original-loss", "backward the loss itself, not a detached copy",
                  file, stmt.lineno, (op,)), (file, store.lineno)


def _strip_copy(value: ast.expr) -> ast.expr | None:
    inner, stripped = value, False
    while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
            and inner.func.attr in _COPY:
        inner, stripped = inner.func.value, True
    while isinstance(inner, ast.Attribute) and inner.attr == "data":
        inner, stripped = inner.value, True
    return inner if stripped and isinstance(inner, (ast.Name, ast.Attribute)) else None
