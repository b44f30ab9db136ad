"""Live objects the user's frames hold, read without calling their code: a dotted name's
value, the optimizers in sight and what they hold, where an optimizer was built.
"""

from __future__ import annotations

import ast
from typing import Any

import torch

from autograd_doctor.source import reading


def resolve(expression: str, scopes: list[dict[str, Any]]) -> Any:
    """Evaluate a dotted name (`model.encoder`) against live scopes; attribute reads only."""
    head, *rest = expression.split(".")
    for scope in scopes:
        if head in scope:
            value = scope[head]
            try:
                for part in rest:
                    value = getattr(value, part)
            except AttributeError:
                continue
            return value
    return None


def names_holding(obj: object, scopes: list[dict[str, Any]]) -> set[str]:
    """The names (`opt`, `self.optimizer`) that hold this object in these scopes."""
    names = {k for scope in scopes for k, v in list(scope.items()) if v is obj}
    for scope in scopes:
        owner = scope.get("self")
        if owner is not None and hasattr(owner, "__dict__"):
            names |= {f"self.{k}" for k, v in list(vars(owner).items()) if v is obj}
    return names


def construction(optimizer: object, scopes: list[dict[str, Any]], files: list[str]
                 ) -> tuple[str, ast.Assign, ast.expr] | None:
    """The statement that built the optimizer and its first argument (the parameters)."""
    names = names_holding(optimizer, scopes)
    for file in dict.fromkeys(files):
        tree = reading.parse(file)
        if tree is None:
            continue
        for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.Assign)):
            if reading.text(stmt.targets[0]) in names and isinstance(stmt.value, ast.Call) \
                    and stmt.value.args:
                return file, stmt, stmt.value.args[0]
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
