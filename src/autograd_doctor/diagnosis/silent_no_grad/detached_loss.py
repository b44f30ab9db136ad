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

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.silent_no_grad.evidence import (
    NoGrad,
    backward_statement,
    claim,
    last_backward,
    summary,
)
from autograd_doctor.edits.operations import Delete, Operation, Remedy, replace_node
from autograd_doctor.edits.strategies import keep_in_torch
from autograd_doctor.source import patterns, reading
from autograd_doctor.source.places import FrameInfo

CATEGORY = "detached-loss"
CULPRIT = "model"
CULPRIT_LINE = 9  # line of BROKEN

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

def match(ev: NoGrad) -> Claim | None:
    if not ev.alarm or not ev.on_leaf:
        return None
    found = backward_statement(last_backward(ev))
    remedy, made = _original(found) if found else (None, None)
    copied = _made_in_replay(ev)
    if copied is not None and (copied[0].file, copied[1].lineno) != made:
        # The copy was made further in (a callback's `on_loss` returning a fresh leaf): that
        # statement is the mistake, and the fix undoes it there.
        frame, stmt = copied
        remedy = _undo_copy(frame.file, stmt, None) or remedy
        made = (frame.file, stmt.lineno)
    if remedy is None and copied is not None:
        remedy = _in_torch(ev, copied[1])
    why = (
        f"{summary(ev)}: backward is called on a detached copy of the loss (a new leaf "
        f"tensor connected to nothing), so it runs without error and trains nothing."
    )
    hint = ("Backward the original loss; if that raised an error, that error is the one to "
            "fix (run autograd-doctor on it again). The same goes for "
            "`torch.tensor(loss.item(), requires_grad=True)`.")
    return claim(ev, CATEGORY, why, hint, made, remedy)


def _original(found: tuple[FrameInfo, ast.stmt]
              ) -> tuple[Remedy | None, tuple[str, int] | None]:
    site, stmt = found
    file = site.file
    receiver = reading.call_receiver(stmt, "backward")
    scope = site.scope
    if receiver is None or scope is None:
        return None, None
    name = reading.text(receiver)
    stores = [s for s in reading.stores(scope, name) if s.lineno < stmt.lineno
              and isinstance(s, ast.Assign)]
    if not stores:
        return None, None
    store = stores[-1]
    remedy = _undo_copy(file, store, (name, receiver, stmt.lineno))
    return remedy, (file, store.lineno)


def _undo_copy(file: str, store: ast.stmt, backwarded: tuple[str, ast.expr, int] | None
               ) -> Remedy | None:
    """Undo the statement that made the copy (an assignment, or a helper's `return`):
    `backwarded` is the name backwarded, its node and the backward's line, when the copy is
    backwarded under a name of its own."""
    value = store.value if isinstance(store, (ast.Assign, ast.Return)) else None
    if value is None:
        return None
    original = patterns.stripped_copy(value)
    op: Operation
    name, receiver, line = backwarded or ("", None, store.lineno)
    rebinds = isinstance(store, ast.Assign) and original is not None and [
        reading.text(t) for t in store.targets] == [reading.text(original)]
    if original is not None and (reading.text(original) == name or rebinds):
        # `loss = loss.clone().detach().requires_grad_()`: the copy replaced the loss; the
        # statement that made it goes.
        op = Delete(file, store.lineno, store.end_lineno or store.lineno)
    elif original is not None and receiver is not None:
        # `copy = loss.clone().detach()` -> backward `loss` where the copy was backwarded.
        op = replace_node(file, receiver, reading.segment(file, original))
    elif original is not None:
        op = replace_node(file, value, reading.segment(file, original))
    elif (wrapped := next((n for n in ast.walk(value) if isinstance(n, ast.Call)
                           and patterns.unwrap(n) is not None), None)) is not None:
        inner = patterns.unwrap(wrapped)
        assert inner is not None
        # `loss = torch.tensor(f(x).item(), requires_grad=True)` -> `loss = f(x)`.
        op = replace_node(file, wrapped, reading.text(inner))  # rewritten: not the source's
    elif (cut := patterns.regrad_cut(value)) is not None:
        # `safe = torch.nan_to_num(loss.detach(), ...)` later made a leaf again: the
        # computation keeps the loss itself (the later `requires_grad_()` is then a no-op).
        op = replace_node(file, cut[0], reading.segment(file, cut[1]))
    else:
        return None
    return Remedy("backward-original-loss", "backward the loss itself, not a detached copy",
                  file, line, (op,))


def _in_torch(ev: NoGrad, made: ast.stmt) -> Remedy | None:
    """The loss rebuilt as a leaf from numbers computed outside torch (a NumPy metric of
    `estimate.detach().numpy()`): the whole trip written in torch, from the statements in
    the same function that took the values out to the one that wrapped them again."""
    record = last_backward(ev)
    if ev.trace is None or record is None:
        return None
    sites = next((flow.site for key in record.extra.get("tensors", ())
                  if (flow := ev.trace.flow_of(key, ev.trace.last_backward + 1)) is not None
                  and flow.site), None)
    if not sites:
        return None
    frames = [(f.file, f.scope, f.statement) for f in sites
              if f.scope is not None and f.statement is not None]
    if not frames:
        return None
    file, scope, _ = frames[0]
    left = [(file, store) for name in sorted(reading.names_in(made))
            for store in reading.stores(scope, name)[-1:] if store.lineno < made.lineno
            and any(patterns.leaves_torch(n) or patterns.history_cut(n)
                    for n in ast.walk(store))]
    return keep_in_torch(frames, False, left)


def _made_in_replay(ev: NoGrad) -> tuple[FrameInfo, ast.stmt] | None:
    """Where the replay saw the backwarded leaf made, when that was in the user's code."""
    record = last_backward(ev)
    if ev.trace is None or record is None:
        return None
    for key in record.extra.get("tensors", ()):
        flow = ev.trace.flow_of(key, ev.trace.last_backward + 1)
        frame = flow.site[0] if flow is not None and flow.site else None
        if frame is not None and frame.statement is not None:
            return frame, frame.statement
    return None
