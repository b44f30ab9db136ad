"""Running totals kept as tensors: `total += loss` or `total = total + loss` in a loop, where
the added value has history. Shared by AGD105 (the total only grows) and AGD106 (the total
is backwarded every iteration).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from autograd_doctor.lint import facts as f
from autograd_doctor.source import patterns, reading


@dataclass(frozen=True)
class Total:
    scope: ast.AST
    loop: ast.AST  # a loop, or a function called once per step
    store: ast.Assign | ast.AugAssign
    name: str
    added: ast.expr  # what each iteration adds
    backwards: tuple[f.Backward, ...]  # backward calls in the loop that reach the total
    backwarded_later: bool  # reaches a backward anywhere else in the function
    estimate: bool = False  # a moving average (`x = a * x + b * y`) rather than a sum


def totals(facts: f.FileFacts) -> Iterator[Total]:
    for scope in f.scopes(facts.tree):
        everything = f.body_statements(scope)
        for loop in f.repeated(scope):
            body = f.body_statements(loop)
            for stmt in body:
                found = _accumulation(stmt)
                if found is None or f.under_no_grad(scope, stmt) or not isinstance(
                        stmt, (ast.Assign, ast.AugAssign)):
                    continue
                name, added = found
                resets = [w for w in f.writes(loop, name) if w is not stmt]
                if not f.persists(scope, loop, name) or any(
                        _covers(loop, w, f.backwards(loop)) for w in resets):
                    continue
                if not _has_history(facts, body, stmt, added) or not f.feeds_backward(
                        body, added, f.backwards(loop)):
                    continue
                backs = tuple(b for b in f.backwards(loop) if f.reaches(body, stmt, b))
                later = any(f.reaches(everything, stmt, b) or name in f.live_names(b.target)
                            for b in f.backwards(scope) if not reading.inside(b.call, loop))
                yield Total(scope, loop, stmt, name, added, backs, later,
                            not patterns.accumulates(stmt, name))
        yield from _in_helpers(facts, scope)


def _in_helpers(facts: f.FileFacts, scope: ast.AST) -> Iterator[Total]:
    """Totals kept by a helper of this file (a meter, a callback, a logger) that the training
    loop hands a value with history every step: `meter.update(loss, n)` with
    `self.sum += val * n` inside."""
    for loop in f.loops(scope):
        backs = f.backwards(loop)
        if not backs:
            continue
        body = f.body_statements(loop)
        for stmt, _call, helper, bound in helper_calls(facts, body):
            inner = f.body_statements(helper)
            for store in inner:
                found = _accumulation(store)
                if found is None or not isinstance(store, (ast.Assign, ast.AugAssign)):
                    continue
                name, added = found
                if not f.persists(helper, helper, name) or any(
                        w is not store for w in f.writes(helper, name)):
                    continue
                given = [bound[p] for p in _params_read(inner, store, added) if p in bound]
                if any(_has_history(facts, body, stmt, arg) and f.feeds_backward(
                        body, arg, backs) for arg in given):
                    yield Total(helper, helper, store, name, added, (), False,
                                not patterns.accumulates(store, name))


def _covers(loop: ast.AST, reset: ast.AST, backs: list[f.Backward]) -> bool:
    """Does this reset run as often as the backward calls do? One at the top of the loop
    does; one under `if (i + 1) % k == 0:` only if the backward calls are under it too
    (gradient accumulation done right), not when backward runs every iteration."""
    guards = _ifs(loop, reset)
    if not guards:
        return True
    return all(reading.inside(b.call, guards[-1]) for b in backs)


def _ifs(loop: ast.AST, node: ast.AST) -> list[ast.If]:
    """The `if` statements of `loop` around `node`, outermost first."""
    found = [n for n in f.own(loop) if isinstance(n, ast.If) and reading.inside(node, n)
             and n is not node]
    return sorted(found, key=lambda n: n.lineno)


def helper_calls(facts: f.FileFacts, body: list[ast.stmt]
                 ) -> Iterator[tuple[ast.stmt, ast.Call, f.Function, dict[str, ast.expr]]]:
    """Calls in `body` to functions and methods of this file (that do not backward
    themselves), with what each call binds to the helper's parameters."""
    for stmt in body:
        for call in f.nodes_of(stmt):
            if not isinstance(call, ast.Call):
                continue
            name = f.callee_name(call) or (
                call.func.attr if isinstance(call.func, ast.Attribute) else "")
            helper = facts.functions.get(name) if name not in facts.ambiguous else None
            if helper is None or f.backwards(helper):
                continue
            yield stmt, call, helper, f.bind(helper, call)


def _params_read(body: list[ast.stmt], store: ast.stmt, added: ast.expr) -> set[str]:
    """Names `added` reads, directly or through the helper's earlier statements."""
    defs = f.flow(body, until=store)
    names = f.live_names(added)
    for i in defs.of(added):
        if i in defs.by_id:
            names |= f.live_names(f.value_of(defs.by_id[i]))
    return names


_KEPT = (ast.Name, ast.Attribute, ast.Subscript)


def _accumulation(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    """(total, what is added) for `t += x`, `t = t + x`, `t[k] += x` and moving averages
    `t = a * t + b * x` (also `t = x if t is None else ...`)."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and isinstance(
            stmt.target, _KEPT):
        return reading.text(stmt.target), stmt.value
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], _KEPT):
        name = reading.text(stmt.targets[0])
        value = stmt.value
        if patterns.accumulates(stmt, name) and isinstance(value, ast.BinOp) and isinstance(
                value.op, ast.Add):
            other = value.right if reading.text(value.left) == name else value.left
            return name, other
        if patterns.running_estimate(stmt, name):
            if isinstance(value, ast.IfExp):
                value = value.orelse if name in reading.names_in(value.orelse) else value.body
            if isinstance(value, ast.BinOp):
                sides = [value.left, value.right]
                added = [s for s in sides if name not in reading.names_in(s)]
                if len(added) == 1:
                    return name, added[0]
    return None


def _has_history(facts: f.FileFacts, body: list[ast.stmt], stmt: ast.stmt,
                 added: ast.expr) -> bool:
    if f.makes_history(facts, added):
        return True
    defs = f.flow(body, until=stmt)
    return bool(f.history_statements(facts, defs, defs.of(added)))
