"""Evidence for "element 0 of tensors does not require grad": where, between the model and
the loss, the graph was cut, and how (the deciding facts, `Cut.points`).

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

from autograd_doctor.capture.frames import frame_info
from autograd_doctor.capture.hooks import Failure
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.saved_tensor_access.evidence import evaluate
from autograd_doctor.edits.operations import Remedy
from autograd_doctor.graph.names import modules_in
from autograd_doctor.source import patterns, places, reading

# How the graph was cut (keys of Cut.points), each with the node that did it.
NO_GRAD_BLOCK = "no-grad-block"  # the `with torch.no_grad():` statement
NO_GRAD_CALL = "no-grad-call"  # a decorator: @torch.no_grad() on a function called here
LEFT_TORCH = "left-torch"  # `.item()`, `.numpy()`, `.tolist()`, `torch.tensor(...)`
DETACH = "detach"  # `.detach()` or `.data`
NON_DIFFERENTIABLE = "non-differentiable"  # argmax, round, a comparison...
FROZEN = "frozen"  # no cut in the code: every parameter in sight has requires_grad=False


@dataclass
class Cut:
    failure: Failure
    failing: BackwardRecord
    name: str  # the variable that lost its history
    file: str
    stmt: ast.stmt  # where `name` was assigned (or, for FROZEN, where they were frozen)
    scope: ast.AST
    # Every way the statement cuts the graph, with its node (a `with`, a call, a decorator,
    # the freezing loop); more than one is possible, causes declare which wins.
    points: dict[str, ast.AST] = field(default_factory=dict)
    chain: list[ast.stmt] = field(default_factory=list)  # the loss's statements in that block
    frame: FrameType | None = None
    modules: list[tuple[str, torch.nn.Module]] = field(default_factory=list)
    decorator_file: str = ""  # the file holding a NO_GRAD_CALL decorator


def gather(failure: Failure) -> Cut | None:
    failing = failure.record
    if failing is None or not failure.frames:
        return None
    frame = failure.frames[0]
    info = frame_info(frame)
    scope = info.scope
    stmt = info.statement
    if scope is None or stmt is None:
        return None
    start = patterns.backwarded(stmt)
    if start is None:
        return None
    return _trace(failure, frame, scope, start, stmt.lineno)


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
            if not patterns.has_non_differentiable(stmt):  # pseudo-labels stay under no_grad
                for block in reading.blocks_around(scope, stmt.lineno):
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
        at = found.points.get(NO_GRAD_BLOCK)
        if isinstance(at, ast.With):
            found.chain = on_path.get(id(at), found.chain)
            found.chain = _with_dependencies(found, at)
    return found


def _tensor_names(expr: ast.expr, frame: FrameType) -> list[str]:
    """Names read by `expr` whose value is a tensor without history, in source order
    (the loss's first operand is the one the reader looks at first)."""
    out: list[str] = []
    nodes = sorted((n for n in ast.walk(expr) if isinstance(n, (ast.Name, ast.Attribute))
                    and isinstance(n.ctx, ast.Load)), key=lambda n: (n.lineno, n.col_offset))
    for node in nodes:
        value = evaluate(node, frame)
        name = reading.text(node)
        if isinstance(value, torch.Tensor) and not value.requires_grad and name not in out:
            out.append(name)
    return out


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
    stores = [s for s in reading.stores(scope, name) if s.lineno <= before]
    return stores[-1] if stores else None


def _cut_at(failure: Failure, failing: BackwardRecord, frame: FrameType, file: str,
            scope: ast.AST, name: str, stmt: ast.stmt) -> Cut | None:
    """Every way this statement cuts the graph, if it does (it must read something
    trainable: a label built with argmax from data cut nothing)."""
    value = getattr(stmt, "value", None)
    if value is None or not _feeds_grad(value, frame):
        return None
    points: dict[str, ast.AST] = {}
    for block in reversed(reading.blocks_around(scope, stmt.lineno)):
        if any(patterns.is_no_grad(item.context_expr) for item in block.items):
            points.setdefault(NO_GRAD_BLOCK, block)
    nodes = list(ast.walk(value))
    for node in nodes:
        if patterns.leaves_torch(node):
            points.setdefault(LEFT_TORCH, node)
        elif patterns.history_cut(node) is not None:
            points.setdefault(DETACH, node)
        elif patterns.non_differentiable(node):
            points.setdefault(NON_DIFFERENTIABLE, node)
    decorator_file = ""
    for call in (n for n in nodes if isinstance(n, ast.Call)):
        decorator = _no_grad_decorator(evaluate(call.func, frame))
        if decorator is not None:
            decorator_file, points[NO_GRAD_CALL] = decorator
            break
    if not points:
        return None
    return Cut(failure, failing, name, file, stmt, scope, points, [stmt], frame,
               decorator_file=decorator_file)


def _no_grad_decorator(func: Any) -> tuple[str, ast.expr] | None:
    """A user function decorated with @torch.no_grad() / @torch.inference_mode()."""
    target = getattr(func, "__wrapped__", func)
    code = getattr(target, "__code__", None)
    if code is None:
        return None
    scope = reading.scope_of(code.co_filename, code.co_name, code.co_firstlineno)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    for decorator in scope.decorator_list:
        if patterns.is_no_grad(decorator):
            return code.co_filename, decorator
    return None


def _frozen(failure: Failure, failing: BackwardRecord, frame: FrameType, file: str,
            scope: ast.AST, start: ast.expr, line: int) -> Cut | None:
    """Every module in sight has all its parameters frozen: find where they were frozen."""
    modules = [(n, m) for n, m in _modules(frame) if any(True for _ in m.parameters())]
    if not modules or any(p.requires_grad for _, m in modules for p in m.parameters()):
        return None
    tree = reading.parse(file)
    if tree is None:
        return None
    for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.stmt)):
        text = reading.line_text(file, stmt.lineno)
        simple = not reading.is_compound(stmt)
        if simple and ("requires_grad = False" in text or "requires_grad_(False)" in text):
            loop = _enclosing_for(tree, stmt)
            return Cut(failure, failing, modules[0][0], file, stmt, scope,
                       {FROZEN: loop or stmt}, [stmt], frame, modules)
    return None


def _enclosing_for(tree: ast.AST, stmt: ast.stmt) -> ast.For | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and stmt in node.body:
            return node
    return None


def _modules(frame: FrameType) -> list[tuple[str, torch.nn.Module]]:
    found = list(modules_in(frame.f_locals))
    if frame.f_globals is not frame.f_locals:
        found += list(modules_in(frame.f_globals))
    return found


def _with_dependencies(cut: Cut, block: ast.With) -> list[ast.stmt]:
    """For a no-grad block: the block's statements the cut ones need, in source order."""
    body = block.body
    needed = {id(s) for s in cut.chain if not patterns.has_non_differentiable(s)} or {
        id(cut.stmt)}
    changed = True
    while changed:
        changed = False
        reads = set().union(*(reading.names_in(s) for s in body if id(s) in needed))
        for stmt in body:
            if id(stmt) not in needed and any(reading.text(t) in reads
                                              for t in reading.targets(stmt)):
                needed.add(id(stmt))
                changed = True
    return [s for s in body if id(s) in needed]



# -- for the causes: the words and the finding's frame -----------------------------------


def claim(cut: Cut, category: str, why: str, hint: str, remedy: Remedy | None,
          cut_file: str, cut_line: int) -> Claim:
    return Claim(category, why, hint,
                 places.culprit(cut.name, "attribute" if "." in cut.name else "local",
                                cut.file, cut.stmt.lineno),
                 places.frame_location(cut.failing.site), None,
                 {"cut": places.location(cut_file, cut_line).to_dict()}, remedy)


def where(file: str, line: int) -> str:
    return f"{places.user_path(file)}:{line}"
