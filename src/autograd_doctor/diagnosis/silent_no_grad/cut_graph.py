"""Cut graph: the model's output went through `.data`, `.detach()` or NumPy before the loss,
and the result was made to require grad again, so backward runs and stops at that point.

`out.data.requires_grad_()` (or `out.detach().requires_grad_()`) creates a new leaf: the
loss trains that leaf, never the model behind it.

Remove the `.data` / `.detach()` between the model and the loss.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from autograd_doctor.capture.tracer import Crossing
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.silent_no_grad.evidence import (
    NoGrad,
    backward_statement,
    claim,
    last_backward,
    starved,
    summary,
)
from autograd_doctor.edits.operations import Delete, Operation, Remedy, replace_node
from autograd_doctor.edits.strategies import keep_in_torch, move_out_of_no_grad, with_keywords
from autograd_doctor.graph.names import steps
from autograd_doctor.source import patterns, places, reading
from autograd_doctor.source.places import FrameInfo

CATEGORY = "cut-graph"
CULPRIT = "model"
CULPRIT_LINE = 8  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    out = model(torch.randn(8, 4)).data.requires_grad_()
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("model(torch.randn(8, 4)).data.requires_grad_()",
                       "model(torch.randn(8, 4))")


def match(ev: NoGrad) -> Claim | None:
    if ev.cut is not None and not ev.reached_outside and not ev.on_leaf:
        return _traced(ev, ev.cut)
    record = last_backward(ev)
    if not ev.alarm or record is None or ev.on_leaf or len(ev.missing) != ev.total:
        return None
    if ev.reached_outside:
        return None  # it reaches another model's parameters: optimizer-other-model
    found = backward_statement(record)
    cut = _cut(found[0].file, found[1], found[0]) if found else None
    remedy = None
    if cut is not None:
        file, stmt, node, kept = cut
        ops: list[Operation] = [replace_node(file, node, reading.segment(file, kept))]
        # `x.requires_grad = True` on what is no longer a leaf would raise: drop it too.
        ops += [Delete(file, s.lineno, s.end_lineno or s.lineno)
                for s in _regrads(file, stmt, found[0] if found else None)]
        remedy = Remedy("remove-detach", "keep the model in the loss's graph", file,
                        stmt.lineno, tuple(ops))
    why = (
        f"{summary(ev)}: the loss's graph stops at a tensor made from the model output with "
        f"`.data` / `.detach()` and then made to require grad, so backward trains that "
        f"tensor and never the model."
    )
    hint = "Remove the `.data` / `.detach()`."
    return claim(ev, CATEGORY, why, hint, (cut[0], cut[1].lineno) if cut else None, remedy)


def _cut(file: str, stmt: ast.stmt, site: FrameInfo
         ) -> tuple[str, ast.stmt, ast.expr, ast.expr] | None:
    """Follow the names the backward statement reads back through their assignments to the
    `.detach()` / `.data` that made the leaf (with `.requires_grad_()` dropped as well)."""
    scope = site.scope
    if scope is None:
        return None
    work, seen = [stmt], set()
    while work:
        current = work.pop(0)
        for name in sorted(reading.names_in(current)):
            if name in seen:
                continue
            seen.add(name)
            stores = [s for s in reading.stores(scope, name) if s.lineno < current.lineno]
            if not stores:
                continue
            store = stores[-1]
            value = getattr(store, "value", None)
            if value is None:
                continue
            found = patterns.regrad_cut(value)
            if found is not None:
                return (file, store, *found)
            work.append(store)
    return None


def _regrads(file: str, store: ast.stmt, site: FrameInfo | None) -> list[ast.stmt]:
    """`name.requires_grad = True` / `name.requires_grad_()` statements for the cut name."""
    if site is None:
        return []
    scope = site.scope
    names = {reading.text(t) for t in reading.targets(store)}
    out = []
    for stmt in reading.statements(scope) if scope is not None else []:
        if stmt.lineno <= store.lineno:
            continue
        text = reading.line_text(file, stmt.lineno).replace(" ", "")
        if any(text.startswith(f"{n}.requires_grad=True") or text.startswith(
                f"{n}.requires_grad_(") for n in names):
            out.append(stmt)
    return out


_HOW = {"detach": "`.detach()`", "data": "`.data`", "leaves-torch": "a trip out of torch",
        "no-grad": "a `torch.no_grad()` region", "non-differentiable": "an operation with no "
        "gradient"}


def _traced(ev: NoGrad, cut: Crossing) -> Claim:
    """A replay saw where the starved parameters' values left autograd: that statement is
    the culprit, and the edit undoes that step where it can be undone in place."""
    frame = cut.site[0] if cut.site else None
    remedy = None
    decorator_at: tuple[str, int] | None = None
    if cut.kind == "no-grad":
        # The op ran deep inside a call made in a `with torch.no_grad():` further out (a
        # front-end called from the model's forward): that call is what to move out.
        found = next(((f, b) for f in cut.site if f.scope is not None and f.statement
                      for b in reversed(reading.blocks_around(f.scope, f.line))
                      if any(patterns.is_no_grad(i.context_expr) for i in b.items)), None)
        decorated = next(((f, d) for f in cut.site if isinstance(f.scope, ast.FunctionDef)
                          for d in f.scope.decorator_list if patterns.is_no_grad(d)), None)
        if found is not None and found[0].statement is not None:
            frame = found[0]
            remedy = move_out_of_no_grad(frame.file, found[1],
                                         _downstream(found[1], found[0].statement))
        elif decorated is not None:
            # `@torch.no_grad()` on a helper the model's forward calls: the helper records
            # a graph again.
            helper, decorator = decorated
            # Where grad went off is the decorator, unless the decorated function runs the
            # starved module itself among other work (a teacher's targets computed with the
            # student's connector): that statement is the one misplaced there.
            runs = {steps(m)[-1].lstrip(".[") for m in starved(ev).split(", ")}
            text = reading.line_text(helper.file, helper.line)
            if helper is not cut.site[0] or not any(
                    r and re.search(rf"\b{re.escape(r)}\b", text) for r in runs):
                decorator_at = (helper.file, decorator.lineno)
            remedy = Remedy("move-out-of-no-grad", "let the helper record a graph",
                            helper.file, decorator.lineno,
                            (Delete(helper.file, decorator.lineno, decorator.lineno),))
        else:
            remedy = _non_reentrant(cut)
    stmt = frame.statement if frame is not None else None
    if remedy is None and frame is not None and stmt is not None:
        remedy = _undo(frame, stmt, cut)
        others = [r for c in ev.sibling_cuts() if c.site and c.site[0].statement is not None
                  and (r := _undo(c.site[0], c.site[0].statement, c)) is not None]
        if remedy is not None and others:
            remedy = replace(remedy, operations=remedy.operations + tuple(
                op for r in others for op in r.operations))
    # Undone in place, a trip out of torch may still come back through a re-wrap
    # (`torch.tensor(min(max(a.exp(), lo), hi))`): the whole round trip in torch is the
    # next thing to try.
    translated = keep_in_torch([(f.file, f.scope, f.statement) for f in cut.site
                                if f.scope is not None and f.statement is not None]) \
        if cut.kind in ("detach", "data", "leaves-torch") else None
    alternatives = (translated,) if remedy is not None and translated is not None and \
        cut.kind == "leaves-torch" else ()
    remedy = remedy or translated
    at = decorator_at or ((frame.file, frame.line) if frame else None)
    where = f" at {places.user_path(at[0])}:{at[1]}" if at else ""
    why = (f"{summary(ev)}: their output leaves autograd through {_HOW[cut.kind]}{where} "
           f"(`{cut.op}`) on its way to the loss, so backward never reaches them.")
    hint = ("Keep that path in torch and in the graph: no `.detach()`, `.data`, `.item()`, "
            "NumPy or `torch.no_grad()` between these parameters and the loss.")
    said = claim(ev, CATEGORY, why, hint, at, remedy)
    return replace(said, alternatives=alternatives)


def _downstream(block: ast.With, first: ast.stmt) -> list[ast.stmt]:
    """The statement where the path left autograd and those after it in the block that
    read what it (or they) assigned: all on the way to the loss."""
    chain = [first]
    names = {reading.text(t) for t in reading.targets(first)}
    for stmt in block.body:
        if stmt.lineno > first.lineno and names & reading.names_in(stmt):
            chain.append(stmt)
            names |= {reading.text(t) for t in reading.targets(stmt)}
    return chain


def _non_reentrant(cut: Crossing) -> Remedy | None:
    """A reentrant checkpoint runs its function under no_grad and lets gradients back in
    only through inputs that require grad: with raw input, nothing inside learns. The
    non-reentrant one has no such condition."""
    for frame in cut.site:
        stmt = frame.statement
        for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)) if stmt else ():
            reentrant = next((k for k in call.keywords if k.arg == "use_reentrant"), None)
            if reading.text(call.func).rsplit(".", 1)[-1] == "checkpoint" and (
                    reentrant is None or reading.text(reentrant.value) == "True"):
                return Remedy("non-reentrant-checkpoint", "checkpoint with use_reentrant=False",
                              frame.file, frame.line, (with_keywords(
                                  frame.file, call, ("use_reentrant=False",),
                                  ("use_reentrant",)),))
    return None


def _undo(frame: FrameInfo, stmt: ast.stmt, cut: Crossing) -> Remedy | None:
    """Drop the `.detach()` / `.data` (and a `.requires_grad_()` on it, or a later
    `x.requires_grad = True`), or the `.item()` / `float(...)` that took the value out of
    torch."""
    file = frame.file
    value = reading.value_span(stmt) or (stmt.value if isinstance(stmt, (ast.Expr, ast.Return))
                                         and stmt.value is not None else None)
    if value is None:
        return None
    ops: list[Operation] = []
    if cut.kind in ("detach", "data"):
        found = patterns.regrad_cut(value)
        if found is None or any(patterns.leaves_torch(n) for n in ast.walk(value)):
            return None  # `.detach().numpy()`: the way back is to rewrite it in torch
        node, kept = found
        ops.append(replace_node(file, node, reading.segment(file, kept)))
        ops += [Delete(file, s.lineno, s.end_lineno or s.lineno)
                for s in _regrads(file, stmt, frame)]
    elif cut.kind == "leaves-torch" and cut.op in ("item", "__float__", "tolist"):
        for call in (n for n in ast.walk(value) if isinstance(n, ast.Call)):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "item" \
                    and not call.args:
                ops.append(replace_node(file, call, reading.segment(file, call.func.value)))
                break
            if reading.text(call.func) == "float" and len(call.args) == 1:
                ops.append(replace_node(file, call, reading.segment(file, call.args[0])))
                break
    if not ops:
        return None
    if cut.kind == "leaves-torch":
        return Remedy("keep-in-torch", "keep the value a tensor on its way to the loss", file,
                      stmt.lineno, tuple(ops))
    return Remedy("remove-detach", "keep the path to the loss in the graph", file,
                  stmt.lineno, tuple(ops))
