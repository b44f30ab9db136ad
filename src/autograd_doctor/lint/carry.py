"""Values carried from one iteration of a training loop into the next with their history.

Shared by the rules that see the same shape with different consequences: without
`retain_graph` the second backward fails (AGD101); with it, every step's graph stays alive
(AGD107). A value is carried when a loop (or a function that backwards and is called again,
for state on `self` or declared global/nonlocal) binds it from an expression that reads it
and has history, binds it nowhere else, and a backward in that loop reaches it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from autograd_doctor.lint import facts as f
from autograd_doctor.source import patterns, reading


@dataclass(frozen=True)
class Carried:
    scope: ast.AST
    loop: ast.AST  # the loop, or the function whose calls carry it
    store: ast.Assign  # `out, h = model(x, h)`
    name: str  # h
    backwards: tuple[f.Backward, ...]  # the backward calls that reach it


def carried(facts: f.FileFacts) -> Iterator[Carried]:
    seen: set[tuple[int, str]] = set()
    for scope in f.scopes(facts.tree):
        for loop in f.repeated(scope):
            backs = f.backwards(loop)
            if not backs:
                continue
            body = f.body_statements(loop)
            for stmt in body:
                name = _fed_back(facts, scope, loop, stmt, body)
                if name is None or (stmt.lineno, name) in seen:
                    continue
                reached = tuple(b for b in backs if f.reaches(body, stmt, b))
                if reached:
                    seen.add((stmt.lineno, name))
                    assert isinstance(stmt, ast.Assign)
                    yield Carried(scope, loop, stmt, name, reached)
            yield from _in_helpers(facts, loop, body, backs, seen)


def kept_estimate(found: Carried) -> bool:
    """A moving average kept on an object (`self.ema = m * self.ema + (1 - m) * x`): what
    the report format calls stored state, where a local running estimate is carried state."""
    return "." in found.name and patterns.running_estimate(found.store, found.name)


def _in_helpers(facts: f.FileFacts, loop: ast.AST, body: list[ast.stmt],
                backs: list[f.Backward], seen: set[tuple[int, str]]) -> Iterator[Carried]:
    """State a helper of this file keeps on `self` (or in an outer scope) and feeds back
    into its model, when the loop calls the helper every iteration and backwards what it
    returns (`loss = self.training_step(batch)`; `loss.backward()`)."""
    for call_stmt in body:
        for call in f.nodes_of(call_stmt):
            helper = facts.functions.get(f.callee_name(call)) if isinstance(
                call, ast.Call) else None
            if helper is None or helper is loop or f.backwards(helper):
                continue
            if isinstance(call, ast.Call) and f.writes(loop, f.callee_name(call)):
                continue  # a closure made afresh each iteration starts with fresh state
            resets = _resets(facts, loop, helper)
            reached = tuple(b for b in backs if f.reaches(body, call_stmt, b))
            if not reached:
                continue
            inner = f.body_statements(helper)
            for stmt in inner:
                name = _fed_back(facts, helper, helper, stmt, inner)
                if name is not None and name not in resets and (stmt.lineno, name) not in seen:
                    seen.add((stmt.lineno, name))
                    assert isinstance(stmt, ast.Assign)
                    yield Carried(helper, helper, stmt, name, reached)


def _fed_back(facts: f.FileFacts, scope: ast.AST, loop: ast.AST, stmt: ast.stmt,
              body: list[ast.stmt]) -> str | None:
    if not isinstance(stmt, ast.Assign) or f.under_no_grad(scope, stmt):
        return None
    live = f.live_names(stmt.value)
    if any(isinstance(c, ast.Call) and f.opaque_call(facts, c) for c in f.live_nodes(
            stmt.value)):
        return None
    for target in reading.targets(stmt):
        name = reading.text(target)
        if not isinstance(target, (ast.Name, ast.Attribute)) or (
                name not in live and not _through(body, stmt, name)):
            continue
        if patterns.accumulates(stmt, name) or f.grows(stmt.value, name) is not None:
            continue  # a running total or a growing bank: their own rules
        first_values = _lazy_inits(loop, name)
        if not all(w is stmt or id(w) in first_values for w in f.writes(loop, name)):
            continue
        if _cut_by_helper(facts, loop, name):
            continue
        if not f.persists(scope, loop, name):
            continue
        if _has_history(facts, stmt, body):
            return name
    return None


def _cut_by_helper(facts: f.FileFacts, loop: ast.AST, name: str) -> bool:
    """A helper of this file that the loop calls cuts the state itself: it rebinds `name`
    detached or afresh (`self.repackage()` with `self.hidden = self.hidden.detach()`)."""
    for call in (n for n in f.own(loop) if isinstance(n, ast.Call)):
        helper = facts.functions.get(f.callee_name(call))
        if helper is None or helper is loop:
            continue
        for stmt in f.body_statements(helper):
            value = reading.value_span(stmt)
            if value is None or name not in {reading.text(t) for t in reading.targets(stmt)}:
                continue
            if patterns.creates(value) or isinstance(value, ast.Constant) or any(
                    isinstance(n, ast.Attribute) and n.attr in ("detach", "detach_")
                    for n in ast.walk(value)):
                return True
    return False


def _resets(facts: f.FileFacts, loop: ast.AST, helper: f.Function) -> set[str]:
    """Names a sibling closure (made by the same factory as `helper`) sets afresh, when the
    loop calls it: `reset(batch)` with `h = torch.zeros(...)` starts each episode anew."""
    out: set[str] = set()
    for call in (n for n in f.own(loop) if isinstance(n, ast.Call)):
        name = f.callee_name(call)
        sibling = facts.closures.get(name) or facts.functions.get(name)
        if sibling is None or sibling is helper or not any(
                sibling in getattr(p, "body", ()) and helper in getattr(p, "body", ())
                for p in facts.functions.values()):
            continue
        for stmt in f.body_statements(sibling):
            value = reading.value_span(stmt)
            if value is not None and (patterns.creates(value) or (
                    isinstance(value, ast.Constant) and value.value is None)):
                out |= {reading.text(t) for t in reading.targets(stmt)}
    return out


def _lazy_inits(node: ast.AST, name: str) -> set[int]:
    """Writes that only give `name` its first value (`if h is None: h = torch.zeros(...)`):
    from the second run on, the value carried in is the one the loop made."""
    found: set[int] = set()
    for branch in (n for n in f.own(node) if isinstance(n, ast.If)):
        tests = [c for c in ast.walk(branch.test) if isinstance(c, ast.Compare)
                 and reading.text(c.left) == name and isinstance(c.ops[0], ast.Is)
                 and isinstance(c.comparators[0], ast.Constant)
                 and c.comparators[0].value is None]
        if tests:
            found |= {id(w) for stmt in branch.body for w in f.writes(stmt, name)}
            found |= {id(stmt) for stmt in branch.body
                      if any(reading.text(t) == name for t in reading.targets(stmt))}
    return found


def _through(body: list[ast.stmt], stmt: ast.Assign, name: str) -> bool:
    """Does the new value come from the old one by way of other names (`hx = cell(x,
    state.hx)`, then `state.hx = hx`)?"""
    if "." not in name:
        return False  # a plain local read through other names is the common, safe case
    defs = f.flow(body, until=stmt)
    return any(name in f.live_names(f.value_of(defs.by_id[i]))
               for i in defs.of(stmt.value) if i in defs.by_id)


def _has_history(facts: f.FileFacts, stmt: ast.Assign, body: list[ast.stmt]) -> bool:
    if f.makes_history(facts, stmt.value):
        return True
    defs = f.flow(body, until=stmt)
    return any(f.makes_history(facts, f.value_of(defs.by_id[d])) for d in defs.of(stmt.value))
