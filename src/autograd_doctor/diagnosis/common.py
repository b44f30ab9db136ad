"""Pieces every backward-twice cause shares: the finding's frame and the explanations."""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.places import culprit, frame_location
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy
from autograd_doctor.diagnosis.stale import Evidence, Suspect, owner_class
from autograd_doctor.findings import Finding
from autograd_doctor.graph import source

RETAIN_GRAPH_CARRIED = (
    "retain_graph=True would only hide this: every step would then backpropagate through "
    "all earlier steps (time and memory grow without bound), and once optimizer.step() "
    "has changed the weights the old graph saved, it turns into the in-place "
    "modification error."
)


def as_written(expression: str, file: str | None, line: int | None) -> str:
    """`model.memory` found on the model is `self.memory` where the class assigns it."""
    if "." not in expression or file is None or line is None:
        return expression
    attr = "self." + expression.rsplit(".", 1)[1]
    if expression.split(".")[0] != "self" and attr in source.line_text(file, line):
        return attr
    return expression


def describe_call(ev: Evidence, which: str) -> str:
    record = ev.freeing if which == "freeing" else ev.failing
    if record is None:
        return "an earlier backward call that is no longer in the record"
    site = frame_location(record.site)
    where = f"{site.file}:{site.line}" if site else "an unknown place"
    return f"the backward call at {where} (call #{record.number})"


def finding(ev: Evidence, category: str, message: str, suspect: Suspect | None,
            assigned: tuple[str, int] | None, remedy: Remedy | None,
            expression: str | None = None, **details: object) -> Diagnosis:
    found = None
    if suspect is not None:
        file, line = assigned if assigned else (None, None)
        name = expression or as_written(suspect.expression, file, line)
        found = culprit(name, suspect.kind, file, line)
    extra: dict[str, object] = {k: v for k, v in details.items() if v is not None}
    if len(ev.suspects) > 1:
        extra["also"] = [s.expression for s in ev.suspects[1:]]
    return Diagnosis(
        Finding(
            error="backward-twice",
            category=category,
            message=message,
            culprit=found,
            failing_backward=frame_location(ev.failing.site),
            freeing_backward=frame_location(ev.freeing.site) if ev.freeing else None,
            details=extra,
        ),
        remedy,
    )


def accumulates(stmt: ast.stmt, expression: str) -> bool:
    """`total += x` or `total = total + x`: a running sum rather than a state update."""
    if isinstance(stmt, ast.AugAssign):
        return isinstance(stmt.op, (ast.Add, ast.Sub)) and source.text(stmt.target) == expression
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp):
        value = stmt.value
        return isinstance(value.op, (ast.Add, ast.Sub)) and expression in (
            source.text(value.left), source.text(value.right))
    return False


def backward_reads(ev: Evidence, expression: str) -> bool:
    """Is `expression` itself what the failing backward call is made on?"""
    site = ev.failing.site
    scope = source.scope_of(site.file, site.function, site.first_line) if site else None
    stmt = source.statement_at(scope, site.line) if scope is not None and site else None
    return stmt is not None and expression in source.names_in(stmt)


def recurrent_store(ev: Evidence,
                     suspect: Suspect) -> tuple[str, source.Scope, ast.stmt] | None:
    expr = suspect.expression
    candidates: list[tuple[str, ast.AST]] = []
    if suspect.scope is not None:
        candidates.append((suspect.frame.file, suspect.scope))
    owner = owner_class(expr, suspect, ev.live_scopes) if "." in expr else None
    if owner is not None:
        candidates.append(owner)
    local_expr = "self." + expr.rsplit(".", 1)[1] if "." in expr else expr
    for file, scope in candidates:
        for node in ast.walk(scope):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                continue
            for e in {expr, local_expr}:
                for stmt in source.stores(node, e):
                    value = places.value_span(stmt)
                    if value is not None and _feeds_call(value, e):
                        return file, node, stmt
    return None


# Calls that combine tensors rather than run a model: `torch.cat([self.bank, k])` keeps a
# store (stored-state), `self.rnn(x, self.h)` feeds state back (carried-state).
_NOT_A_MODEL = ("torch.", "F.", "np.", "numpy.", "math.")
_BUILTINS = {"tuple", "list", "sum", "max", "min", "len", "dict", "float", "int"}


def _feeds_call(value: ast.expr, expression: str) -> bool:
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            func = source.text(node.func)
            if func.startswith(_NOT_A_MODEL) or func in _BUILTINS or func.startswith(
                    expression + "."):
                continue
            args = list(node.args) + [k.value for k in node.keywords]
            for arg in args:
                if expression in source.names_in(arg) or source.text(arg) == expression:
                    return True
    return False


def item_calls(file: str, name: str) -> list[ast.Call]:
    """`name.item()` calls in the file: they break once `name` holds a Python number."""
    tree = source.parse(file)
    if tree is None:
        return []
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func,
            ast.Attribute) and n.func.attr == "item" and not n.args
            and source.text(n.func.value) == name]
