"""Accumulated tensor: a running total (or moving average) is kept as a tensor, so each
step's graph stays attached to it and memory grows with every step, without an error.

`total_loss += loss` looks like bookkeeping, but `loss` carries its graph: the total links
every step's loss (and the nodes behind it) into one chain that is never freed. This is the
"don't accumulate history across your training loop" item of PyTorch's FAQ.

Accumulate plain numbers: `total_loss += loss.item()`.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.graph_growth.evidence import (
    RUNNING_TOTAL,
    GrowthEvidence,
    claim,
    figures,
)
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import Remedy, Replace, replace_node
from autograd_doctor.source import patterns, reading

CATEGORY = "accumulated-tensor"
CULPRIT = "total_loss"
CULPRIT_LINE = 13  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total_loss = 0
for step in range(8):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss
print(f"mean loss {total_loss.item() / 8:.4f}")
"""

FIXED = BROKEN.replace("total_loss += loss\n", "total_loss += loss.item()\n").replace(
    "total_loss.item() / 8", "total_loss / 8")


def match(ev: GrowthEvidence) -> Claim | None:
    g = ev.growth
    if g.kind != "chain" or ev.retained or ev.storage != RUNNING_TOTAL or ev.update is None:
        return None
    store = ev.update
    why = (
        f"`{ev.written}` is kept as a tensor and updated every step from tensors that "
        f"carry their graph, so it holds every step's graph: {figures(g)}. Nothing errors, "
        f"but memory grows with every step."
    )
    targets = reading.targets(store[1])
    # Updated by in-place methods (`rate.mul_(d).add_(...)`), it is an estimate kept as a
    # tensor: it stays one.
    estimate = not targets or patterns.running_estimate(store[1], reading.text(targets[0]))
    hint = ("Keep the average without history: detach what goes into it."
            if estimate else "Accumulate plain numbers with `.item()`.")
    item, detach = _item(store), _detach_term(store)
    first, second = (detach, item) if estimate else (item, detach)
    said = claim(g, CATEGORY, why, hint, (store[0], store[1].lineno), first or second,
                 ev.written)
    return replace(said, alternatives=(second,) if first and second else ())


def _detach_term(store: tuple[str, ast.stmt]) -> Remedy | None:
    """`ema = 0.9 * ema + 0.1 * x.detach()`, `total += loss.detach()`: the value stays a
    tensor (of any shape), without the graph of what is added to it."""
    file, stmt = store
    chain = patterns.added_in_place(stmt)
    if chain is not None:
        # `rate.mul_(d).add_((1 - d) * x)`: what each in-place add takes in, detached.
        held = reading.text(chain[0])
        # `lerp_(x, w)` takes in `x`; its weight, like `add_`'s alpha, is a number.
        added = [call.args[0] for call in chain[1] if call.args
                 and not isinstance(call.args[0], ast.Constant)
                 and not _mentions(call.args[0], held)]
        return Remedy("detach-on-store", f"keep {held} without the graph of what is added",
                      file, stmt.lineno, tuple(replace_node(file, a, detached(
                          reading.segment(file, a))) for a in added)) if added else None
    value = reading.value_span(stmt)
    if value is None:
        return None
    target = reading.text(reading.targets(stmt)[0])
    if isinstance(value, ast.IfExp) or not isinstance(stmt, ast.AugAssign) and not isinstance(
            value, ast.BinOp):  # `x = y if x is None else 0.9 * x + 0.1 * y`: all of it, as
        # is a row written from a blend of old and new (`d[idx] = torch.where(m, new, avg)`)
        return Remedy("detach-on-store", f"keep {target} without the graph", file,
                      stmt.lineno, (replace_node(file, value,
                                                 detached(reading.segment(file, value))),))
    terms = [value] if isinstance(stmt, ast.AugAssign) else [
        v for v in ((value.left, value.right) if isinstance(value, ast.BinOp) else ())
        if not _mentions(v, target)]
    ops = [replace_node(file, term, detached(reading.segment(file, term))) for term in terms]
    if not ops:
        return None
    ops += _first_values(file, stmt, target)
    ops += [replace_node(file, other.value, detached(reading.segment(file, other.value)))
            for other in _sibling_totals(file, stmt, target)]
    return Remedy("detach-on-store", f"keep {target} without the graph of what is added",
                  file, stmt.lineno, tuple(ops))


def _sibling_totals(file: str, update: ast.stmt, target: str) -> list[ast.AugAssign]:
    """The other running totals of the same object added to beside this one (a meter's
    `self.intersection += ...` and `self.denominator += ...`): one mistake, every site.
    Only terms computed from tensors (a call or arithmetic with no `.item()` in it)."""
    owner = target.rsplit(".", 1)[0] + "." if "." in target else ""
    tree = reading.parse(file)
    block = (reading.block_of(tree, update) if tree is not None else None) or []
    if not isinstance(update, ast.AugAssign) or not owner:
        return []
    return [s for s in block if s is not update and isinstance(s, ast.AugAssign)
            and type(s.op) is type(update.op) and isinstance(s.target, ast.Attribute)
            and reading.text(s.target).startswith(owner)
            and isinstance(s.value, (ast.Call, ast.BinOp)) and not any(
                patterns.leaves_torch(n) or patterns.history_cut(n) for n in ast.walk(s.value))]


def _first_values(file: str, update: ast.stmt, target: str) -> list[Replace]:
    """`if self.ema is None: self.ema = x` beside the update: the value the average starts
    from carries its graph too, and every later value is built on it."""
    tree = reading.parse(file)
    scope = reading.enclosing_function(tree, update) if tree is not None else None
    if scope is None:
        return []
    starts = [v for st in reading.stores(scope, target) if st is not update
              and (v := reading.value_span(st)) is not None and not isinstance(v, ast.Constant)
              and not _mentions(v, target) and not patterns.creates(v)]
    return [replace_node(file, v, detached(reading.segment(file, v))) for v in starts]


def _item(store: tuple[str, ast.stmt]) -> Remedy | None:
    file, stmt = store
    value = stmt.value  # type: ignore[attr-defined]
    if not isinstance(stmt, ast.AugAssign) and not isinstance(value, ast.BinOp):
        return None
    target = reading.text(stmt.targets[0] if isinstance(stmt, ast.Assign)
                         else stmt.target)  # type: ignore[attr-defined]
    terms = [value] if isinstance(stmt, ast.AugAssign) else [
        v for v in (value.left, value.right) if not _mentions(v, target)]
    ops = []
    for term in terms:
        named = [n for n in ast.walk(term) if isinstance(n, ast.Name)
                 and isinstance(n.ctx, ast.Load)]
        node = named[0] if len(named) == 1 and not isinstance(term, ast.Call) else term
        text = reading.segment(file, node)
        wrapped = text if isinstance(node, (ast.Name, ast.Attribute, ast.Call)) else f"({text})"
        ops.append(replace_node(file, node, f"{wrapped}.item()"))
    tree = reading.parse(file)
    calls = patterns.item_calls(tree, target) if tree is not None else []
    ops += [replace_node(file, call, target) for call in calls]
    if not ops:
        return None
    return Remedy("accumulate-item", f"accumulate {target} as a number with .item()", file,
                  stmt.lineno, tuple(ops))


def _mentions(node: ast.AST, target: str) -> bool:
    """Does `node` read the running value (`total`, `self.sum`, `self.sums["x"]`, or an
    entry read back through the mapping's own lookup: `self.sums.get(name, 0.0)`)?"""
    table = target.split("[")[0] if target.endswith("]") else None
    return target in reading.names_in(node) or any(
        isinstance(n, ast.Subscript) and reading.text(n) == target
        or table is not None and isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("get", "setdefault") and reading.text(n.func.value) == table
        for n in ast.walk(node))
