"""Live objects the user's frames hold, read without calling their code: a dotted name's
value, the optimizers in sight and what they hold, where an optimizer was built.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

import torch

from autograd_doctor.graph.names import plain_attributes
from autograd_doctor.source import reading
from autograd_doctor.source.places import FrameInfo

_MISSING = object()


def resolve(expression: str, scopes: list[dict[str, Any]]) -> Any:
    """The value of `model.encoder`, `net[2].weight`, `cache["h"]` in live scopes (the first
    scope that can answer); None when none can."""
    try:
        node = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return None
    return evaluate(node, scopes)


def evaluate(node: ast.expr, scopes: list[dict[str, Any]]) -> Any:
    """Names, attributes and constant subscripts only: reading the user's values, never
    calling their code (beyond what getattr and [] run)."""
    found = _evaluate(node, scopes)
    return None if found is _MISSING else found


def _evaluate(node: ast.expr, scopes: list[dict[str, Any]]) -> Any:
    if isinstance(node, ast.Name):
        return next((s[node.id] for s in scopes if node.id in s), _MISSING)
    if isinstance(node, ast.Attribute):
        base = _evaluate(node.value, scopes)
        return _MISSING if base is _MISSING else getattr(base, node.attr, _MISSING)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        base = _evaluate(node.value, scopes)
        try:
            return _MISSING if base is _MISSING else base[node.slice.value]
        except (IndexError, KeyError, TypeError):
            return _MISSING
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.UnaryOp) and isinstance(
            node.slice.op, ast.USub) and isinstance(node.slice.operand, ast.Constant) \
            and isinstance(node.slice.operand.value, int):
        base = _evaluate(node.value, scopes)
        try:  # `queue[-1]`
            return _MISSING if base is _MISSING else base[-node.slice.operand.value]
        except (IndexError, KeyError, TypeError):
            return _MISSING
    return _MISSING


def names_holding(obj: object, scopes: list[dict[str, Any]]) -> set[str]:
    """The names (`opt`, `self.optimizer`) that hold this object in these scopes."""
    names = {k for scope in scopes for k, v in list(scope.items()) if v is obj}
    for scope in scopes:
        # On an object a name holds (`member.optimizer` for a dataclass in a loop
        # variable); `self` may also be a module that keeps its own (`self.optimizer`).
        for k, owner in list(scope.items()):
            held = list(vars(owner).items()) if k == "self" and hasattr(
                owner, "__dict__") else plain_attributes(owner)
            names |= {f"{k}.{a}" for a, v in held if v is obj}
    return names


def construction(names: set[str], files: list[str], frames: Sequence[FrameInfo] = (),
                 built: Sequence[FrameInfo] = (), kind: str = ""
                 ) -> tuple[str, ast.stmt, ast.expr] | None:
    """The statement that built an optimizer held under one of `names` (`opt`,
    `self.optimizer`), and its first argument (the parameters). Where a replay saw it built
    (`built`, innermost user frame first), the call of its class (`kind`) there; else by
    name, in the functions that were running when it stepped first (innermost first), else
    anywhere in those files. Also built as a keyword of the object that holds it
    (`Member(net, optimizer=Adam(...))` for `member.optimizer`)."""
    for frame in built[:1]:
        calls = [c for c in ast.walk(frame.statement) if isinstance(c, ast.Call) and c.args
                 and reading.text(c.func).rsplit(".", 1)[-1] == kind] \
            if frame.statement is not None and kind else []
        if calls and frame.statement is not None:
            return frame.file, frame.statement, calls[0].args[0]
    where: list[tuple[str, ast.AST | None]] = [(f.file, f.scope) for f in frames]
    where += [(file, reading.parse(file)) for file in dict.fromkeys(files)]
    fields = {n.rsplit(".", 1)[-1] for n in names if "." in n}
    for file, tree in where:
        if tree is None:
            continue
        for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.Assign)):
            if reading.text(stmt.targets[0]) in names and isinstance(stmt.value, ast.Call) \
                    and stmt.value.args:
                return file, stmt, stmt.value.args[0]
        for simple in (n for n in ast.walk(tree) if isinstance(n, ast.stmt)
                       and not reading.is_compound(n)):
            for keyword in (k for c in ast.walk(simple) if isinstance(c, ast.Call)
                            for k in c.keywords):
                value = keyword.value
                if keyword.arg in fields and isinstance(value, ast.Call) and value.args \
                        and "optim" in reading.text(value.func).lower():
                    return file, simple, value.args[0]
    return None


def optimizers_in(scopes: list[dict[str, Any]]) -> list[torch.optim.Optimizer]:
    """Optimizers held by these scopes or by the `self` they hold."""
    found: list[torch.optim.Optimizer] = []
    for scope in scopes:
        values = list(scope.values())
        owner = scope.get("self")
        if owner is not None and hasattr(owner, "__dict__"):
            values += list(vars(owner).values())
        found += [v for v in values if isinstance(v, torch.optim.Optimizer)
                  and all(v is not f for f in found)]
    return found


def param_ids(optimizer: Any) -> set[int]:
    return {id(p) for group in getattr(optimizer, "param_groups", ()) for p in group["params"]}
