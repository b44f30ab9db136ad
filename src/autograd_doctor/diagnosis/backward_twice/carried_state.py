"""Carried state: a tensor computed in one iteration feeds the next.

An RNN's hidden state, a running estimate or the previous output is computed in one
iteration and used again in the next. The backward of the first iteration freed the graph
behind it, so the second iteration's backward, which reaches that graph again through the
carried tensor, fails.

`retain_graph=True` is the wrong fix: every step would then backpropagate through all
earlier steps, getting slower and using more memory without bound, and after an optimizer
step it fails with the in-place modification error instead. The right edit is to cut the
history at the iteration boundary: `h = h.detach()` at the top of the loop body (for an LSTM
`(h, c)` tuple, detach each element). Gradients then flow through the current iteration
only, which is truncated backpropagation through time.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.backward_twice import RETAIN_GRAPH_CARRIED
from autograd_doctor.diagnosis.backward_twice.evidence import (
    ACCUMULATED,
    FED_BACK,
    REBOUND,
    Evidence,
    Suspect,
    claim,
    describe_call,
    owner_class,
    recurrent_store,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import Insert, Remedy, replace_node
from autograd_doctor.edits.strategies import detach_at_boundary, detach_statement
from autograd_doctor.source import patterns, places, reading

CATEGORY = "carried-state"
CULPRIT = "h"
CULPRIT_LINE = 11  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(4, 8)
head = nn.Linear(8, 1)
opt = torch.optim.SGD([*rnn.parameters(), *head.parameters()], lr=0.1)
h = torch.zeros(1, 2, 8)
for step in range(3):
    x = torch.randn(5, 2, 4)
    out, h = rnn(x, h)
    loss = head(out).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("    out, h = rnn(x, h)\n", "    h = h.detach()\n    out, h = rnn(x, h)\n")


def match(ev: Evidence) -> Claim | None:
    suspect = ev.primary
    if ev.root_stale or ev.same_step or suspect is None:
        return None
    if ev.storage == FED_BACK:
        return _recurrent_attribute(ev, suspect)
    carried = ev.storage == REBOUND or (ev.storage == ACCUMULATED and not ev.backwarded)
    if carried and suspect.kind in ("local", "parameter", "container-element"):
        return _local(ev, suspect)
    return None


def _local(ev: Evidence, suspect: Suspect) -> Claim | None:
    placement = places.place(suspect.frame, suspect.expression)
    if placement is None or placement.loop is None:
        return None
    in_loop = placement.stores_in_loop
    carried = [s for s in ev.suspects
               if s.kind == suspect.kind and s.frame.same_code(suspect.frame)
               and (p := places.place(s.frame, s.expression)) is not None
               and p.loop is placement.loop and p.stores_in_loop]
    store = _store_before(in_loop, placement.line)
    remedy: Remedy | None
    if patterns.running_estimate(store, suspect.expression):
        # `b = 0.9 * b + 0.1 * x`: an estimate (a baseline, a normaliser) is data, not a
        # path for gradients even within the step, so the update itself is detached.
        remedy = _detach_update(placement.file, store, suspect.expression)
    else:
        remedy = detach_at_boundary(placement.file, placement.scope, placement.loop,
                                    [(s.expression, s.structure) for s in carried])
    names = " and ".join(f"`{s.expression}`" for s in carried)
    why = (
        f"{names} is computed in one iteration of the loop at "
        f"{places.user_path(placement.file)}:{placement.loop.lineno} and used again in the "
        f"next. {describe_call(ev, 'freeing').capitalize()} freed the graph behind it in the "
        f"previous iteration, and {describe_call(ev, 'failing')} reached that graph again "
        f"through {names}."
    )
    hint = (f"Detach it at the top of the iteration so each step backpropagates through its "
            f"own part only. {RETAIN_GRAPH_CARRIED}")
    return claim(ev, CATEGORY, why, hint, suspect, (placement.file, store.lineno), remedy)


def _detach_update(file: str, store: ast.stmt, expression: str) -> Remedy:
    value = reading.value_span(store)
    assert value is not None
    return Remedy(
        strategy="detach-on-store",
        description=f"keep {expression} as a running estimate without gradient history",
        file=file,
        line=store.lineno,
        operations=(replace_node(file, value, detached(reading.segment(file, value))),),
    )


def _store_before(stores: list[ast.stmt], line: int) -> ast.stmt:
    before = [s for s in stores if s.lineno <= line]
    return before[-1] if before else stores[-1]


def _recurrent_attribute(ev: Evidence, suspect: Suspect) -> Claim | None:
    """`out, self.h = self.rnn(x, self.h)`: state on an object, fed back into a call."""
    found = recurrent_store(ev, suspect)
    if found is None:
        return None
    file, scope, store = found
    loops = reading.loops_around(scope, store.lineno)
    body = loops[-1].body if loops else getattr(scope, "body", [])
    target = reading.first_use(body, scope, suspect.expression) or store
    indent = reading.indent_of(file, target.lineno)
    statement = detach_statement(scope, suspect.expression, suspect.structure)
    if _assigned_none_anywhere(ev, suspect) and not statement.startswith("if "):
        statement = f"if {suspect.expression} is not None:\n    {statement}"
    remedy = Remedy(
        strategy="detach-at-boundary",
        description=f"detach {suspect.expression} before it enters the next step",
        file=file,
        line=target.lineno,
        operations=(Insert(file, target.lineno, statement, indent),),
    )
    why = (
        f"`{suspect.expression}` carries the state from one step to the next: it is "
        f"assigned from a call that also reads it ({places.user_path(file)}:{store.lineno}). "
        f"{describe_call(ev, 'freeing').capitalize()} freed the graph behind it, and "
        f"{describe_call(ev, 'failing')} reached that graph again through it."
    )
    hint = f"Detach it before it is fed back in. {RETAIN_GRAPH_CARRIED}"
    return claim(ev, CATEGORY, why, hint, suspect, (file, store.lineno), remedy)


def _assigned_none_anywhere(ev: Evidence, suspect: Suspect) -> bool:
    owner = owner_class(suspect.expression, suspect, ev.live_scopes)
    if owner is None:
        return False
    attr = "self." + suspect.expression.rsplit(".", 1)[-1]
    return any(reading.may_be_none(node, attr) for node in ast.walk(owner[1])
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
