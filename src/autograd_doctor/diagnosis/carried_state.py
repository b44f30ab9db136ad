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

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.common import (
    RETAIN_GRAPH_CARRIED,
    accumulates,
    backward_reads,
    describe_call,
    finding,
    recurrent_store,
)
from autograd_doctor.diagnosis.growth import Growth
from autograd_doctor.diagnosis.growth_common import figures, growth_finding
from autograd_doctor.diagnosis.remedy import Diagnosis, Insert, Remedy, detached, replace_node
from autograd_doctor.diagnosis.stale import Evidence, Suspect, owner_class, same_step
from autograd_doctor.graph import source

ERROR = ("backward-twice", "graph-growth")
CATEGORY = "carried-state"
CULPRIT = "h"

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


def match(ev: Evidence | Growth) -> Diagnosis | None:
    if isinstance(ev, Growth):
        return _never_freed(ev)
    if ev.root_stale or same_step(ev) or not ev.suspects:
        return None
    suspect = ev.suspects[0]
    if suspect.kind in ("local", "parameter", "container-element"):
        return _local(ev, suspect)
    if suspect.kind in ("attribute", "global"):
        return _recurrent_attribute(ev, suspect)
    return None


def _local(ev: Evidence, suspect: Suspect) -> Diagnosis | None:
    placement = places.place(suspect.frame, suspect.expression)
    if placement is None or placement.loop is None:
        return None
    in_loop = placement.stores_in_loop
    if not in_loop:
        return None
    if any(accumulates(s, suspect.expression) for s in in_loop) and backward_reads(
            ev, suspect.expression):
        return None  # accumulated-loss
    carried = [s for s in ev.suspects
               if s.kind == suspect.kind and s.frame.same_code(suspect.frame)
               and (p := places.place(s.frame, s.expression)) is not None
               and p.loop is placement.loop and p.stores_in_loop]
    store = _store_before(in_loop, placement.line)
    remedy: Remedy | None
    if running_estimate(store, suspect.expression):
        # `b = 0.9 * b + 0.1 * x`: an estimate (a baseline, a normaliser) is data, not a
        # path for gradients even within the step, so the update itself is detached.
        remedy = _detach_update(placement.file, store, suspect.expression)
    else:
        remedy = detach_at_top(placement, [(s.expression, s.structure) for s in carried])
    names = " and ".join(f"`{s.expression}`" for s in carried)
    message = (
        f"{names} is computed in one iteration of the loop at "
        f"{places.user_path(placement.file)}:{placement.loop.lineno} and used again in the "
        f"next. {describe_call(ev, 'freeing').capitalize()} freed the graph behind it in the "
        f"previous iteration, and {describe_call(ev, 'failing')} reached that graph again "
        f"through {names}. Detach it at the top of the iteration so each step "
        f"backpropagates through its own part only. {RETAIN_GRAPH_CARRIED}"
    )
    return finding(ev, CATEGORY, message, suspect, (placement.file, store.lineno), remedy)


def _never_freed(g: Growth) -> Diagnosis | None:
    """The same cause seen without an error: no backward ever frees the carried state's
    graph (the loss was detached, or backward runs on something else), so it grows."""
    if g.kind != "chain" or (g.in_backward and g.record.retained):
        return None
    placement = places.place(g.frame, g.expression)
    if placement is None or any(accumulates(s, g.expression) or running_estimate(
            s, g.expression) for s in placement.stores):
        return None  # a running total: accumulated-tensor
    stores = placement.stores_in_loop
    remedy = detach_at_top(placement, [(g.expression, g.structure)])
    message = (
        f"`{g.expression}` is carried from one step into the next and no backward call ever "
        f"frees the graph behind it, so it keeps every step's graph: {figures(g)}. Detach "
        f"it at the top of each step. (If backward is called on a detached copy of the loss, "
        f"that is the first thing to fix.)"
    )
    at = (placement.file, stores[-1].lineno) if stores else None
    return growth_finding(g, CATEGORY, message, at, remedy)


def running_estimate(stmt: ast.stmt, expression: str) -> bool:
    """`x = a * x + b * y`: an exponential moving average of something else."""
    value = getattr(stmt, "value", None)
    if not isinstance(stmt, ast.Assign) or not isinstance(value, ast.BinOp) or not isinstance(
            value.op, ast.Add):
        return False
    sides = [value.left, value.right]
    decayed = [s for s in sides if isinstance(s, ast.BinOp) and isinstance(s.op, ast.Mult)
               and expression in (source.text(s.left), source.text(s.right))]
    return len(decayed) == 1 and all(
        expression not in source.names_in(s) for s in sides if s is not decayed[0])


def _detach_update(file: str, store: ast.stmt, expression: str) -> Remedy:
    value = places.value_span(store)
    assert value is not None
    return Remedy(
        strategy="detach-on-store",
        description=f"keep {expression} as a running estimate without gradient history",
        file=file,
        line=store.lineno,
        operations=(replace_node(file, value, detached(source.segment(file, value))),),
    )


def _store_before(stores: list[ast.stmt], line: int) -> ast.stmt:
    before = [s for s in stores if s.lineno <= line]
    return before[-1] if before else stores[-1]


def detach_at_top(placement: places.Placement, carried: list[tuple[str, str]]) -> Remedy | None:
    """`h = h.detach()` before the loop body (or function body) first reads it."""
    loop = placement.loop
    body = loop.body if loop is not None else getattr(placement.scope, "body", [])
    if not body:
        return None
    exprs = [e for e, _ in carried]
    uses = [places.first_use(body, placement.scope, e) for e in exprs]
    found = [u for u in uses if u is not None]
    target = min(found, key=lambda s: s.lineno) if found else body[0]
    indent = source.indent_of(placement.file, target.lineno)
    lines = [_detach_statement(placement.scope, e, structure) for e, structure in carried]
    where = "each iteration" if loop is not None else "each call"
    return Remedy(
        strategy="detach-at-boundary",
        description=f"detach {' and '.join(exprs)} at the top of {where}",
        file=placement.file,
        line=target.lineno,
        operations=(Insert(placement.file, target.lineno, "\n".join(lines), indent),),
    )


def _detach_statement(scope: ast.AST, expression: str, structure: str) -> str:
    statement = f"{expression} = {detached(expression, structure)}"
    if places.may_be_none(scope, expression):
        return f"if {expression} is not None:\n    {statement}"
    return statement


def _recurrent_attribute(ev: Evidence, suspect: Suspect) -> Diagnosis | None:
    """`out, self.h = self.rnn(x, self.h)`: state on an object, fed back into a call."""
    found = recurrent_store(ev, suspect)
    if found is None:
        return None
    file, scope, store = found
    loops = source.loops_around(scope, store.lineno)
    body = loops[-1].body if loops else getattr(scope, "body", [])
    target = places.first_use(body, scope, suspect.expression) or store
    indent = source.indent_of(file, target.lineno)
    statement = _detach_statement(scope, suspect.expression, suspect.structure)
    if _assigned_none_anywhere(ev, suspect) and not statement.startswith("if "):
        statement = f"if {suspect.expression} is not None:\n    {statement}"
    remedy = Remedy(
        strategy="detach-at-boundary",
        description=f"detach {suspect.expression} before it enters the next step",
        file=file,
        line=target.lineno,
        operations=(Insert(file, target.lineno, statement, indent),),
    )
    message = (
        f"`{suspect.expression}` carries the state from one step to the next: it is "
        f"assigned from a call that also reads it ({places.user_path(file)}:{store.lineno}). "
        f"{describe_call(ev, 'freeing').capitalize()} freed the graph behind it, and "
        f"{describe_call(ev, 'failing')} reached that graph again through it. Detach it "
        f"before it is fed back in. {RETAIN_GRAPH_CARRIED}"
    )
    return finding(ev, CATEGORY, message, suspect, (file, store.lineno), remedy)


def _assigned_none_anywhere(ev: Evidence, suspect: Suspect) -> bool:
    owner = owner_class(suspect.expression, suspect, ev.live_scopes)
    if owner is None:
        return False
    attr = "self." + suspect.expression.rsplit(".", 1)[-1]
    return any(places.may_be_none(node, attr) for node in ast.walk(owner[1])
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
