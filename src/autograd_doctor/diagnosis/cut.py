"""Evidence for "element 0 of tensors does not require grad": where, between the model and
the loss, the graph was cut.

The loss has no history, so the graph cannot say anything; the source can. Starting from
what backward was called on, follow the assignments backwards through the tensors that
have no history, until the statement that cut it off: a `torch.no_grad()` block, a
`.detach()`, a NumPy round trip, a non-differentiable op, a module whose parameters are
all frozen. The live values in the failing frame say which names lost their history.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import torch

from autograd_doctor.capture.hooks import Failure
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.diagnosis.access import evaluate
from autograd_doctor.graph import source

NO_GRAD = ("torch.no_grad()", "torch.inference_mode()", "torch.set_grad_enabled(False)",
           "no_grad()", "inference_mode()")
REWRAP_CALLS = ("torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor",
                "torch.FloatTensor", "np.array", "numpy.array")
REWRAP_METHODS = ("item", "numpy", "tolist")
NON_DIFFERENTIABLE = ("argmax", "argmin", "round", "floor", "ceil", "sign", "long", "int",
                      "bool", "argsort", "searchsorted", "bucketize")


@dataclass
class Cut:
    failure: Failure
    failing: BackwardRecord
    category: str  # no-grad-block, detached, rewrapped, non-differentiable, frozen-parameters
    name: str  # the variable that lost its history
    file: str
    stmt: ast.stmt  # where `name` was assigned
    at: ast.AST  # the cut itself: the `with` block, the `.detach()` call, the decorator...
    scope: ast.AST
    chain: list[ast.stmt] = field(default_factory=list)  # the loss's statements in that block
    frame: FrameType | None = None
    modules: list[tuple[str, torch.nn.Module]] = field(default_factory=list)
    at_file: str = ""  # the file holding `at`, when not `file` (a decorator elsewhere)

    @property
    def cut_file(self) -> str:
        return self.at_file or self.file


def gather(failure: Failure) -> Cut | None:
    failing = failure.record
    if failing is None or not failure.frames:
        return None
    frame = failure.frames[0]
    code = frame.f_code
    scope = source.scope_of(code.co_filename, code.co_name, code.co_firstlineno)
    stmt = source.statement_at(scope, frame.f_lineno or 0) if scope is not None else None
    if scope is None or stmt is None:
        return None
    start = _backwarded(stmt)
    if start is None:
        return None
    return _trace(failure, frame, scope, start, stmt.lineno)


def _backwarded(stmt: ast.stmt) -> ast.expr | None:
    """What the call was made on: X in `X.backward()`, `torch.autograd.backward(X)`,
    `scaler.scale(X).backward()`, `torch.autograd.grad(X, ...)`."""
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        func = source.text(node.func)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "backward" and \
                not func.startswith("torch.autograd"):
            target = node.func.value
            if isinstance(target, ast.Call) and target.args and source.text(
                    target.func).endswith(".scale"):
                return target.args[0]
            return target
        if func in ("torch.autograd.backward", "torch.autograd.grad", "autograd.grad",
                    "autograd.backward") and node.args:
            return node.args[0]
    return None


def _trace(failure: Failure, frame: FrameType, scope: ast.AST, start: ast.expr,
           line: int) -> Cut | None:
    file = frame.f_code.co_filename
    failing = failure.record
    assert failing is not None
    seen: set[str] = set()
    work: list[tuple[ast.expr, int]] = [(start, line)]
    found: Cut | None = None
    # Statements on the loss's path inside each no-grad block: they all have to come out.
    on_path: dict[int, list[ast.stmt]] = {}
    while work:
        expr, before = work.pop(0)
        for name in _tensor_names(expr, frame):
            if name in seen:
                continue
            seen.add(name)
            stmt = _last_store(scope, name, before)
            if stmt is None:
                continue
            if not _non_differentiable(stmt):  # pseudo-labels stay under no_grad
                for block in source.blocks_around(scope, stmt.lineno):
                    on_path.setdefault(id(block), []).append(stmt)
            cut = _cut_at(failure, failing, frame, file, scope, name, stmt)
            if cut is not None:
                found = found or cut
                continue
            value = getattr(stmt, "value", None)
            if value is not None:
                work.append((value, stmt.lineno))
    if found is None:
        found = _frozen(failure, failing, frame, file, scope, start, line)
    if found is not None:
        if isinstance(found.at, ast.With):
            found.chain = on_path.get(id(found.at), found.chain)
        found.chain = _with_dependencies(found)
    return found


def _tensor_names(expr: ast.expr, frame: FrameType) -> list[str]:
    """Names read by `expr` whose value is a tensor without history, in source order
    (the loss's first operand is the one the reader looks at first)."""
    out: list[str] = []
    nodes = sorted((n for n in ast.walk(expr) if isinstance(n, (ast.Name, ast.Attribute))
                    and isinstance(n.ctx, ast.Load)), key=lambda n: (n.lineno, n.col_offset))
    for node in nodes:
        value = evaluate(node, frame)
        name = source.text(node)
        if isinstance(value, torch.Tensor) and not value.requires_grad and name not in out:
            out.append(name)
    return out


def _non_differentiable(stmt: ast.stmt) -> bool:
    for node in ast.walk(stmt):
        if isinstance(node, ast.Compare):
            return True
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else source.text(
                node.func).rsplit(".", 1)[-1]
            if name in NON_DIFFERENTIABLE:
                return True
    return False


def _feeds_grad(value: ast.expr, frame: FrameType) -> bool:
    """Does the statement read something trainable (a tensor with history, a module with
    trainable parameters)? Only then can it have cut a graph; a label built with argmax
    from data cut nothing."""
    for node in ast.walk(value):
        if not (isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load)):
            continue
        found = evaluate(node, frame)
        owner = getattr(found, "__self__", None)
        for item in (found, owner):
            if isinstance(item, torch.Tensor) and item.requires_grad:
                return True
            if isinstance(item, torch.nn.Module) and any(
                    p.requires_grad for p in item.parameters()):
                return True
    return False


def _last_store(scope: ast.AST, name: str, before: int) -> ast.stmt | None:
    stores = [s for s in source.stores(scope, name) if s.lineno <= before]
    return stores[-1] if stores else None


def _cut_at(failure: Failure, failing: BackwardRecord, frame: FrameType, file: str,
            scope: ast.AST, name: str, stmt: ast.stmt) -> Cut | None:
    value = getattr(stmt, "value", None)
    if value is None or not _feeds_grad(value, frame):
        return None

    def cut(category: str, at: ast.AST, at_file: str = "") -> Cut:
        return Cut(failure, failing, category, name, file, stmt, at, scope, [stmt], frame,
                   at_file=at_file)

    for block in reversed(source.blocks_around(scope, stmt.lineno)):
        if any(source.text(item.context_expr) in NO_GRAD for item in block.items):
            return cut("no-grad-block", block)
    calls = [n for n in ast.walk(value) if isinstance(n, ast.Call)]
    for call in calls:  # leaving torch is the bigger step: it wins over a `.detach()` inside
        method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
        if source.text(call.func) in REWRAP_CALLS or method in REWRAP_METHODS:
            return cut("rewrapped", call)
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "detach":
            return cut("detached", node)
        if isinstance(node, ast.Attribute) and node.attr == "data" and isinstance(
                node.ctx, ast.Load):
            return cut("detached", node)
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            method = node.func.attr if isinstance(node.func, ast.Attribute) else source.text(
                node.func).rsplit(".", 1)[-1]
            if method in NON_DIFFERENTIABLE:
                return cut("non-differentiable", node)
        if isinstance(node, ast.Compare):
            return cut("non-differentiable", node)
    for call in calls:
        decorator = _no_grad_decorator(evaluate(call.func, frame))
        if decorator is not None:
            return cut("no-grad-block", decorator[1], decorator[0])
    return None


def _no_grad_decorator(func: Any) -> tuple[str, ast.expr] | None:
    """A user function decorated with @torch.no_grad() / @torch.inference_mode()."""
    target = getattr(func, "__wrapped__", func)
    code = getattr(target, "__code__", None)
    if code is None:
        return None
    scope = source.scope_of(code.co_filename, code.co_name, code.co_firstlineno)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    for decorator in scope.decorator_list:
        if source.text(decorator) in NO_GRAD or source.text(decorator) in (
                "torch.no_grad", "torch.inference_mode"):
            return code.co_filename, decorator
    return None


def _frozen(failure: Failure, failing: BackwardRecord, frame: FrameType, file: str,
            scope: ast.AST, start: ast.expr, line: int) -> Cut | None:
    """Every module in sight has all its parameters frozen: find where they were frozen."""
    modules = [(n, m) for n, m in _modules(frame) if any(True for _ in m.parameters())]
    if not modules or any(p.requires_grad for _, m in modules for p in m.parameters()):
        return None
    tree = source.parse(file)
    if tree is None:
        return None
    for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.stmt)):
        text = source.line_text(file, stmt.lineno)
        simple = not source.is_compound(stmt)
        if simple and ("requires_grad = False" in text or "requires_grad_(False)" in text):
            loop = _enclosing_for(tree, stmt)
            return Cut(failure, failing, "frozen-parameters", modules[0][0], file, stmt,
                       loop or stmt, scope, [stmt], frame, modules)
    return None


def _enclosing_for(tree: ast.AST, stmt: ast.stmt) -> ast.For | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and stmt in node.body:
            return node
    return None


def _modules(frame: FrameType) -> list[tuple[str, torch.nn.Module]]:
    from autograd_doctor.graph.names import modules_in

    found = list(modules_in(frame.f_locals))
    if frame.f_globals is not frame.f_locals:
        found += list(modules_in(frame.f_globals))
    return found


def _with_dependencies(cut: Cut) -> list[ast.stmt]:
    """For a no-grad block: the block's statements the cut ones need, in source order."""
    if not isinstance(cut.at, ast.With):
        return cut.chain
    body = cut.at.body
    needed = {id(s) for s in cut.chain if not _non_differentiable(s)} or {id(cut.stmt)}
    changed = True
    while changed:
        changed = False
        reads = set().union(*(source.names_in(s) for s in body if id(s) in needed))
        for stmt in body:
            if id(stmt) not in needed and any(source.text(t) in reads
                                              for t in source.targets(stmt)):
                needed.add(id(stmt))
                changed = True
    return [s for s in body if id(s) in needed]

