"""Accumulated loss: a running loss total kept as a tensor and backwarded.

`total_loss += loss` keeps every iteration's graph attached to `total_loss`. Backwarding
the total in the loop reaches the graphs of earlier iterations, which their own backward
already freed.

`retain_graph=True` would make each step backpropagate through every earlier batch again
(gradients counted many times over, time and memory growing each step). Backward the
loss of the current batch, and keep the running total as a Python number with `.item()`
for logging.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.backward_twice.evidence import (
    ACCUMULATED,
    Evidence,
    claim,
    describe_call,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.operations import Remedy, Replace, replace_node
from autograd_doctor.source import patterns, places, reading

CATEGORY = "accumulated-loss"
CULPRIT = "total_loss"
CULPRIT_LINE = 11  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total_loss = 0
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y)
    total_loss += loss
    opt.zero_grad()
    total_loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("total_loss += loss\n", "total_loss += loss.item()\n").replace(
    "total_loss.backward()", "loss.backward()")


def match(ev: Evidence) -> Claim | None:
    suspect = ev.primary
    if ev.root_stale or ev.same_step or suspect is None or ev.storage != ACCUMULATED \
            or not ev.backwarded or suspect.kind not in ("local", "parameter"):
        return None
    placement = places.place(suspect.frame, suspect.expression)
    if placement is None:
        return None
    sums = [s for s in placement.stores_in_loop if patterns.accumulates(s, suspect.expression)]
    store = sums[-1]
    term = _term(store, suspect.expression)
    remedy = _remedy(ev, placement.file, store, term, suspect.expression)
    why = (
        f"`{suspect.expression}` adds up the loss across iterations as a tensor "
        f"({places.user_path(placement.file)}:{store.lineno}), so it still holds the "
        f"graphs of earlier batches. {describe_call(ev, 'freeing').capitalize()} freed "
        f"those graphs, and {describe_call(ev, 'failing')} on the total reached them again."
    )
    hint = (
        "Backward the current batch's loss and accumulate the total with `.item()`. "
        "retain_graph=True would backpropagate through every earlier batch again at each "
        "step: gradients counted many times over, time and memory growing without bound."
    )
    return claim(ev, CATEGORY, why, hint, suspect, (placement.file, store.lineno), remedy)


def _term(store: ast.stmt, expression: str) -> ast.expr:
    if isinstance(store, ast.AugAssign):
        return store.value
    value = store.value  # type: ignore[attr-defined]
    term: ast.expr = value.right if reading.text(value.left) == expression else value.left
    return term


def _remedy(ev: Evidence, file: str, store: ast.stmt, term: ast.expr,
            expression: str) -> Remedy | None:
    if not isinstance(term, ast.Name):
        return None  # no name to backward instead; the message says what to do
    ops: list[Replace] = [replace_node(file, term, f"{term.id}.item()")]
    site = ev.failing.site
    stmt = site.statement if site else None
    receiver = reading.call_receiver(stmt, "backward") if stmt is not None else None
    if receiver is not None and reading.text(receiver) == expression and site is not None:
        ops.append(replace_node(site.file, receiver, term.id))
    tree = reading.parse(file)
    calls = patterns.item_calls(tree, expression) if tree is not None else []
    ops += [replace_node(file, call, expression) for call in calls]
    return Remedy(
        strategy="accumulate-item",
        description=f"backward {term.id} and accumulate {expression} with .item()",
        file=file,
        line=store.lineno,
        operations=tuple(ops),
    )
