"""History list: a tensor with history is appended to a list every step (predictions kept
for an epoch-end metric, losses kept for a plot), so the list holds every step's graph.

Each element keeps the nodes (and any tensors they still save) of the step that made it;
memory grows with every step until the list is dropped.

Store what the list is for, without history: `.detach()` (or `.item()` for a scalar).
"""

from __future__ import annotations

import ast

from autograd_doctor.capture.growth import Growth
from autograd_doctor.capture.tracer import site_of
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.graph_growth.evidence import (
    LIST,
    GrowthEvidence,
    claim,
    figures,
)
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import Remedy, replace_node
from autograd_doctor.source import reading
from autograd_doctor.source.files import project_files

CATEGORY = "history-list"
CULPRIT = "preds"
CULPRIT_LINE = 10  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
preds = []
for step in range(8):
    out = model(torch.randn(8, 4))
    preds.append(out)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"mean prediction {torch.cat(preds).mean().item():.4f}")
"""

FIXED = BROKEN.replace("preds.append(out)", "preds.append(out.detach())")


def match(ev: GrowthEvidence) -> Claim | None:
    g = ev.growth
    if ev.storage != LIST:
        return None
    # Appended in the frame's function, in any function of that file (a helper), or in a
    # method of the user's class that owns the list (`self.losses.append(...)` in a
    # History for what the trainer holds as `self.history.losses`).
    names = [g.expression]
    if "." in g.expression:
        names.append("self." + g.expression.rsplit(".", 1)[-1])
    files = [g.frame.file] + [f for f in project_files() if f != g.frame.file]
    found = _made_there(g, names[-1].rsplit(".", 1)[-1])
    keyed = _by_key(g.expression, files) if found is None else None
    found = found or keyed
    for file in files if found is None else []:
        tree = reading.parse(file)
        scopes: list[ast.AST] = [n for n in ast.walk(tree) if isinstance(
            n, (ast.FunctionDef, ast.AsyncFunctionDef))] if tree else []
        if file == g.frame.file:
            own = reading.scope_of(file, g.frame.function, g.frame.first_line)
            scopes = ([own] if own is not None else []) + scopes
        for scope in scopes:
            for name in names if file == g.frame.file else names[1:]:
                stores = reading.container_stores(scope, name)
                if stores and found is None:
                    found = (file, *stores[-1], name)
        if found is not None:
            break
    remedy = None
    at = None
    written = ""
    if found is not None:
        file, stmt, value, written = found
        at = (file, stmt.lineno)
        parts = _with_history(g, value)
        remedy = Remedy("detach-on-store", f"store the values in {written} without "
                        "their graph", file, stmt.lineno,
                        tuple(replace_node(file, v, detached(reading.segment(file, v)))
                              for v in parts)) if parts else None
    why = (
        f"`{g.expression}` gets one tensor with history per step, so it keeps every step's "
        f"graph alive: {figures(g)}."
    )
    hint = "Store the values without their graph (`.detach()`, or `.item()` for a scalar)."
    return claim(g, CATEGORY, why, hint, at, remedy,
                 written if written.startswith("self.") or keyed else "")


_APPEND = frozenset({"append", "appendleft", "extend", "insert"})


def _by_key(expression: str, files: list[str]) -> tuple[str, ast.stmt, ast.expr, str] | None:
    """`outputs['loss']` of a dict of lists: the one place that appends to any list of
    that dict (`outputs[name].append(value)` in a helper)."""
    if "[" not in expression:
        return None
    base = expression.split("[", 1)[0]
    bases = {base, "self." + base.rsplit(".", 1)[-1]}
    found = []
    for file in files:
        tree = reading.parse(file)
        if tree is None:
            continue
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in _APPEND and call.args \
                    and isinstance(func.value, ast.Subscript) \
                    and reading.text(func.value.value) in bases:
                stmt = next((st for st in ast.walk(tree) if isinstance(st, ast.stmt)
                             and not reading.is_compound(st)
                             and any(n is call for n in ast.walk(st))), None)
                if stmt is not None:
                    found.append((file, stmt, call.args[-1], reading.text(func.value)))
    return found[0] if len(found) == 1 else None


def _with_history(g: Growth, value: ast.expr) -> list[ast.expr]:
    """What to detach in the stored value: all of it, or for a tuple written out
    (`(t, per_sample)`), the elements a replay saw carry the history (the names assigned
    where the held tensor was made); none when that cannot be told."""
    if isinstance(value, ast.Dict):  # `{"loss": loss, "pred": pred}`: each entry's value
        return [v for v in value.values if not isinstance(v, (ast.Constant, ast.JoinedStr))]
    if not isinstance(value, (ast.Tuple, ast.List)):
        return [value]
    made = {reading.text(t) for f in site_of(g.held) or () if g.held is not None
            and f.statement is not None for t in reading.targets(f.statement)}
    named = [e for e in value.elts if reading.text(e) in made]
    if named:
        return named
    # Which parts of the newest entry carried history, as the watch saw them (`(T, ?)`).
    parts = g.structure[1:-1].split(", ") if g.structure.startswith("(") else []
    return [e for e, p in zip(value.elts, parts) if p == "T"] if len(parts) == len(
        value.elts) else []


def _made_there(g: Growth, attribute: str) -> tuple[str, ast.stmt, ast.expr, str] | None:
    """A replay knows where an entry of the list was made: when that statement is what puts
    it in (`self.priorities[i] = err.abs()`), that is the store to fix."""
    for frame in site_of(g.held) or () if g.held is not None else ():
        stmt, scope = frame.statement, frame.scope
        if stmt is None or scope is None:
            continue
        for node in ast.walk(stmt):
            held = node.func.value if isinstance(node, ast.Call) and isinstance(
                node.func, ast.Attribute) else node.value if isinstance(
                node, ast.Subscript) and isinstance(node.ctx, ast.Store) else None
            text = reading.text(held) if held is not None else ""
            if text and (text == g.expression or text.rsplit(".", 1)[-1] == attribute):
                stores = [(st, v) for st, v in reading.container_stores(scope, text)
                          if st is stmt]
                if stores:
                    return frame.file, stmt, stores[0][1], text
    return None
