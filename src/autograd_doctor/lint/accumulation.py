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
                if not all(w is stmt for w in f.writes(loop, name)) or not f.persists(
                        scope, loop, name):
                    continue
                if not _has_history(facts, body, stmt, added) or not f.feeds_backward(
                        body, added, f.backwards(loop)):
                    continue
                defs = f.flow(body)
                again = f.flow(body, start=defs)
                backs = tuple(b for b in f.backwards(loop) if id(stmt) in defs.of(b.target)
                              or id(stmt) in again.of(b.target))
                whole = f.flow(everything)
                later = any(id(stmt) in whole.of(b.target) or name in f.live_names(b.target)
                            for b in f.backwards(scope) if not reading.inside(b.call, loop))
                yield Total(scope, loop, stmt, name, added, backs, later)


def _accumulation(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and isinstance(
            stmt.target, (ast.Name, ast.Attribute)):
        return reading.text(stmt.target), stmt.value
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], (ast.Name, ast.Attribute)):
        name = reading.text(stmt.targets[0])
        value = stmt.value
        if patterns.accumulates(stmt, name) and isinstance(value, ast.BinOp) and isinstance(
                value.op, ast.Add):
            other = value.right if reading.text(value.left) == name else value.left
            return name, other
    return None


def _has_history(facts: f.FileFacts, body: list[ast.stmt], stmt: ast.stmt,
                 added: ast.expr) -> bool:
    if f.makes_history(facts, added):
        return True
    defs = f.flow(body, until=stmt)
    return bool(f.history_statements(facts, defs, defs.of(added)))
