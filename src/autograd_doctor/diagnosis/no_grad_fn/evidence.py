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
from autograd_doctor.capture.tracer import Crossing, Flow, Site, Trace
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.saved_tensor_access.evidence import evaluate
from autograd_doctor.edits.operations import Remedy
from autograd_doctor.graph.names import modules_in
from autograd_doctor.source import patterns, places, reading
from autograd_doctor.source.files import project_files
from autograd_doctor.source.places import FrameInfo

# How the graph was cut (keys of Cut.points), each with the node that did it.
NO_GRAD_BLOCK = "no-grad-block"  # the `with torch.no_grad():` statement
NO_GRAD_CALL = "no-grad-call"  # a decorator: @torch.no_grad() on a function called here
LEFT_TORCH = "left-torch"  # `.item()`, `.numpy()`, `.tolist()`, `torch.tensor(...)`
DETACH = "detach"  # `.detach()` or `.data`
NON_DIFFERENTIABLE = "non-differentiable"  # argmax, round, a comparison...
NO_GRAD_SWITCH = "no-grad-switch"  # `torch.set_grad_enabled(False)` left switched off
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
    # Where the graph was cut, when a replay saw it (the culprit may be assigned further out,
    # where the training code received the value).
    site: FrameInfo | None = None
    # Further cuts of the same kind on the loss's path (file, node), seen by a replay.
    others: list[tuple[str, ast.AST]] = field(default_factory=list)
    # The user frames where the graph was cut, innermost first (a helper and its callers).
    stack: tuple[FrameInfo, ...] = ()
    # For a value rebuilt from Python numbers: where it left torch before (`float(v)`).
    left: tuple[FrameInfo, ...] = ()
    # The innermost user frame of that trip out (inside the metric helper that called
    # `.numpy()`), which is where the graph was cut.
    gone: FrameInfo | None = None

    @property
    def cut_file(self) -> str:
        return self.site.file if self.site is not None else self.file

    @property
    def cut_statement(self) -> ast.stmt:
        found = self.site.statement if self.site is not None else None
        return found if found is not None else self.stmt


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
    if failure.trace is not None:
        traced = _traced(failure, failure.trace)
        if traced is not None:
            return traced
    start = patterns.backwarded(stmt)
    if start is None:
        return None
    return _trace(failure, frame, scope, start, stmt.lineno)


# How a replay's crossing kind shows in the source.
_KIND_POINT = {"detach": DETACH, "data": DETACH, "non-differentiable": NON_DIFFERENTIABLE,
               "leaves-torch": LEFT_TORCH, "from-python": LEFT_TORCH}


def _traced(failure: Failure, trace: Trace) -> Cut | None:
    """The replay followed the loss's lineage back (capture.tracer): the crossing where it
    left autograd is exact, wherever it happened (a helper, a closure, deep in a model).
    Crossings that only feed labels (through argmax, a comparison) are where pseudo-labels
    are made on purpose: the one on a path that could have carried gradients wins."""
    failing = failure.record
    assert failing is not None
    found: list[tuple[bool, int, Crossing]] = []
    on_path: list[Site] = []
    # (tensor id, only feeds labels, depth, order of the call that took it as an input,
    # weakref to that input, how that input was made as the call saw it)
    queue: list[tuple[int, bool, int, int | None, Any, Flow | None]] = [
        (k, False, 0, None, None, None) for k in failing.extra.get("tensors", ())]
    seen: set[int] = set()
    made: Site = ()  # where the loss itself was computed
    while queue:
        key, labels, depth, before, ref, parent = queue.pop(0)
        flow = parent or trace.flow_of(key, before, ref)
        if flow is None or flow.order in seen:
            continue
        seen.add(flow.order)
        made = made or flow.site
        if flow.crossing is not None and flow.crossing.kind != "leaves-torch":
            found.append((labels, depth, flow.crossing))
            if flow.crossing.kind not in ("detach", "data"):
                continue
            # Past a `.detach()` the path goes on: a second one further up (in the same
            # forward) cuts the loss off just as well, and one fix must remove both.
        if not labels:
            on_path.append(flow.site)
        label_op = flow.op in ("argmax", "argmin", "eq", "ne", "gt", "lt", "ge", "le", "long",
                               "int", "bool", "__eq__", "__gt__", "__lt__", "__ge__", "__le__")
        refs = flow.alive or (None,) * len(flow.inputs)
        parents = flow.parents or (None,) * len(flow.inputs)
        queue.extend((k, labels or label_op, depth + 1, flow.order, r, p)
                     for k, r, p in zip(flow.inputs, refs, parents))
    # Where values left torch: `.numpy()`/`.item()` on a tensor with history, or a
    # `.detach()` first (`emb.detach().numpy()`: the trip out starts at the detach).
    leaving = [c for c in trace.crossings if c.kind in ("leaves-torch", "detach", "data")]
    found = [(labels, depth, c) for labels, depth, c in found
             if c.kind != "from-python" or c.sources or any(
                 _same_code(x.site, c.site) and x.order < c.order for x in leaving)]
    if not found:
        return None
    # A `.detach()` / `.data` whose value is named (`w = self.weight.data`) says more than
    # one inside an expression; every other one on the loss's path is cut too, and one fix
    # has to remove them all.
    ranked = sorted(found, key=lambda f: (f[0], f[1]))
    cuts = [c for labels, _, c in ranked if not labels and c.kind in ("detach", "data")]
    named = [c for c in cuts if c.site and isinstance(c.site[0].statement, ast.Assign)]
    crossing = named[0] if named else ranked[0][2]
    # Every value the loss took from the same no_grad block has to come out of it.
    on_path = on_path + [c.site for labels, _, c in found if not labels and c.kind == "no-grad"]
    cut = _cut_from(failure, crossing, on_path, made)
    if cut is not None and crossing.kind == "from-python":
        earlier = [x for x in leaving if _same_code(x.site, crossing.site)
                   and x.order < crossing.order]
        latest = max(earlier, key=lambda x: x.order).site if earlier else ()
        # The frame of the function that re-wrapped it (a comprehension runs in its own).
        cut.left = tuple(f for f in latest if f.same_code(crossing.site[0]))
        cut.gone = next((f for f in latest if f.statement is not None), None)
    if cut is not None and crossing in cuts:
        placed = {_at(cut.cut_file, n) for n in cut.points.values()}
        for other in cuts:
            frame = other.site[0] if other.site else None
            statement = frame.statement if frame is not None else None
            node = _node_for(statement, other) if statement is not None else None
            if frame is not None and node is not None and _at(frame.file, node) not in placed:
                placed.add(_at(frame.file, node))
                cut.others.append((frame.file, node))
    return cut


def _at(file: str, node: ast.AST) -> tuple[str, int, int]:
    return file, getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def _same_code(a: Site, b: Site) -> bool:
    """Did `a` happen in `b`'s function (or in a comprehension or helper it was running)?"""
    return bool(a and b) and any(f.same_code(b[0]) for f in a)


# Crossings whose culprit is the value the training code received (the region or the trip
# out of torch is the cause), not the statement where it happened.
_RECEIVED = ("no-grad", "leaves-torch", "non-differentiable")


def _cut_from(failure: Failure, crossing: Crossing, on_path: list[Site],
              made: Site = ()) -> Cut | None:
    """The crossing as the Cut the causes read: the name that lost its history where it was
    assigned (where the cut happened, or for a no_grad region or a trip out of torch, where
    the failing code received the value), the cut points in the source, and the statements on
    the loss's path inside a no_grad block."""
    failing = failure.record
    assert failing is not None
    inner = crossing.site[0] if crossing.site else None
    if inner is None or inner.statement is None or inner.scope is None:
        return None
    inner_stmt, inner_scope = inner.statement, inner.scope
    assigning = [f for f in crossing.site if isinstance(
        f.statement, (ast.Assign, ast.AnnAssign, ast.AugAssign))]
    here = failing.site
    received = next((f for f in assigning if here is not None and f.same_code(here)),
                    assigning[-1] if assigning else None)
    switched_off = crossing.kind == "no-grad" and bool(crossing.grad_off) and not any(
        _decorators(f) or any(any(patterns.is_no_grad(i.context_expr) for i in b.items)
                              for b in reading.blocks_around(f.scope, f.line))
        for f in crossing.site if f.scope is not None)
    if crossing.kind == "non-differentiable" or switched_off:
        # A hard decision (a spike, an argmax) made deep in a model or a decoder, or grad
        # mode left off by a switch elsewhere (the whole forward lost its graph): the value
        # that lost its gradient is the one the loss was computed from, in the function that
        # computed the loss (a loss helper's `sr_q`, the training step's `pred`, the
        # model's output a loss helper reads).
        received = next((f for f in assigning if made and f.same_code(made[0])),
                        assigning[0] if assigning else None)
    frame_at = (received if crossing.kind in _RECEIVED else
                assigning[0] if assigning else None) or inner
    stmt = frame_at.statement
    assert stmt is not None
    targets = reading.targets(stmt)
    name = reading.text(targets[0]) if targets else reading.text(stmt)
    live = next((f for f in failure.frames if f.f_code.co_filename == frame_at.file
                 and f.f_code.co_firstlineno == frame_at.first_line), None)
    if live is not None:
        name = _floating_target(stmt, name, live)
    points: dict[str, ast.AST] = {}
    decorator_file = ""
    if crossing.kind == "no-grad":
        # The `with` may be further out than the op (a model called inside a closure's
        # `with torch.inference_mode():`): the innermost frame that sits in one.
        found = next(((f, b) for f in crossing.site if f.scope is not None
                      for b in reversed(reading.blocks_around(f.scope, f.line))
                      if any(patterns.is_no_grad(i.context_expr) for i in b.items)), None)
        block = found[1] if found else None
        if found is not None and found[0].statement is not None and found[0].scope is not None:
            inner, inner_stmt, inner_scope = found[0], found[0].statement, found[0].scope
        decorated = next(((f, d) for f in crossing.site for d in _decorators(f)), None)
        if block is not None:
            points[NO_GRAD_BLOCK] = block
        elif decorated is not None:
            decorator_file, points[NO_GRAD_CALL] = decorated[0].file, decorated[1]
        elif crossing.grad_off and crossing.grad_off[0].statement is not None:
            points[NO_GRAD_SWITCH] = crossing.grad_off[0].statement
            decorator_file = crossing.grad_off[0].file
    else:
        point = _KIND_POINT.get(crossing.kind)
        node = _node_for(inner_stmt, crossing)
        if point is not None and node is not None:
            points[point] = node
    if not points:
        return None
    cut = Cut(failure, failing, name, frame_at.file, stmt, frame_at.scope or inner_scope,
              points, [stmt], None, decorator_file=decorator_file, site=inner,
              stack=crossing.site)
    region = points.get(NO_GRAD_BLOCK)
    if isinstance(region, ast.With):
        statements = [f.statement for site in on_path for f in site
                      if f.file == inner.file and f.statement is not None
                      and reading.inside(f.statement, region)]
        inside = [s for s in [*statements, inner_stmt] if s is not None
                  and reading.inside(s, region)]
        needed = Cut(failure, failing, name, inner.file, inner_stmt, inner_scope, points,
                     list(dict.fromkeys(inside)))
        cut.chain = _with_dependencies(needed, region)
    return cut


def _decorators(frame: FrameInfo) -> list[ast.expr]:
    scope = frame.scope
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    return [d for d in scope.decorator_list if patterns.is_no_grad(d)]


def _node_for(stmt: ast.stmt, crossing: Crossing) -> ast.AST | None:
    """The part of the statement that made the crossing (`.detach()`, `.data`, `argmax`,
    `torch.tensor(...)`)."""
    for node in ast.walk(stmt):
        if crossing.kind in ("detach", "data"):
            found = patterns.history_cut(node)
            if found is not None and found[0] == crossing.kind:
                return node
        elif crossing.kind == "non-differentiable":
            if patterns.non_differentiable(node):
                return node
        elif patterns.leaves_torch(node):
            return node
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
            if not patterns.has_non_differentiable(stmt):  # pseudo-labels stay under no_grad
                for block in reading.blocks_around(scope, stmt.lineno):
                    on_path.setdefault(id(block), []).append(stmt)
            cut = _cut_at(failure, failing, frame, file, scope,
                          _floating_target(stmt, name, frame), stmt)
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


def _floating_target(stmt: ast.stmt, name: str, frame: FrameType) -> str:
    """Of the names one statement binds (`tokens, logprobs = model.sample(x)`), the one a
    gradient could flow through: only a floating-point tensor can carry one (sampled token
    ids never could, with grad on or off)."""
    def floating(target: ast.expr) -> bool:
        value = evaluate(target, frame)
        return isinstance(value, torch.Tensor) and value.is_floating_point()

    bound = [t for t in reading.targets(stmt) if isinstance(t, (ast.Name, ast.Attribute))]
    if len(bound) < 2 or any(reading.text(t) == name and floating(t) for t in bound):
        return name
    return next((reading.text(t) for t in bound if floating(t)), name)


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
    # Frozen here, or by a helper in another of the user's modules (`freeze_bn(model)`).
    for where in [file] + [f for f in project_files() if f != file]:
        tree = reading.parse(where)
        if tree is None:
            continue
        for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.stmt)):
            text = reading.line_text(where, stmt.lineno)
            simple = not reading.is_compound(stmt)
            if simple and ("requires_grad = False" in text or "requires_grad_(False)" in text):
                loop = _enclosing_for(tree, stmt)
                # The outermost module frozen (the classifier holding the frozen encoder),
                # under the name the freezing function gave it.
                outer = max(modules, key=lambda m: sum(1 for _ in m[1].parameters()))[0]
                name = as_passed(where, stmt, scope, outer) if where == file else outer
                return Cut(failure, failing, name, where, stmt, scope,
                           {FROZEN: loop or stmt}, [stmt], frame, modules)
    return _frozen_traced(failure, failing, frame, scope, modules)


def _frozen_traced(failure: Failure, failing: BackwardRecord, frame: FrameType,
                   scope: ast.AST, modules: list[tuple[str, torch.nn.Module]]) -> Cut | None:
    """Frozen where the code does not say `requires_grad = False` in so many words (a
    `set_requires_grad(net, flag)` helper): the replay saw each switch. The module blamed is
    the one an optimizer stepped after this backward trains (the others may be frozen on
    purpose for this step, as a critic is during the generator's), at the statement of the
    switch that names it as the failing code does."""
    trace = failure.trace
    if trace is None:
        return None
    stepped = _stepped_after(failing, frame, scope)
    ranked = sorted(modules, key=lambda m: (not any(id(p) in stepped for p in m[1].parameters()),
                                            -sum(1 for _ in m[1].parameters())))
    for name, module in ranked:
        site = next((s for p in module.parameters() if (s := trace.frozen_at(p))), ())
        at = places.naming(site, {name.split(".")[0]})
        if at is None:
            continue
        tree, stmt = reading.parse(at.file), at.statement
        if tree is None or stmt is None:
            continue
        loop = _enclosing_for(tree, stmt)
        return Cut(failure, failing, name, at.file, stmt, scope, {FROZEN: loop or stmt},
                   [stmt], frame, modules)
    return None


def _stepped_after(failing: BackwardRecord, frame: FrameType, scope: ast.AST) -> set[int]:
    """Ids of the parameters held by the optimizers whose `.step()` the failing function
    calls after the failing backward."""
    site = failing.site
    if site is None:
        return set()
    out: set[int] = set()
    for call in (n for n in ast.walk(scope) if isinstance(n, ast.Call)):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "step" and \
                call.lineno > site.line:
            opt = evaluate(call.func.value, frame)
            if isinstance(opt, torch.optim.Optimizer):
                out |= {id(p) for g in opt.param_groups for p in g["params"]}
    return out


def as_passed(file: str, inner: ast.stmt, outer: ast.AST, name: str) -> str:
    """`name` of the calling function (`clf`) as the function holding `inner` calls it
    (`model` in `def freeze(model)`, called `freeze(clf)`); unchanged when not passed."""
    tree = reading.parse(file)
    function = reading.enclosing_function(tree, inner) if tree is not None else None
    if not isinstance(function, ast.FunctionDef) or function is outer:
        return name
    for call in (n for n in ast.walk(outer) if isinstance(n, ast.Call)
                 and reading.text(n.func) == function.name):
        passed = reading.bound_arguments(function, call)
        found = next((p for p, a in passed.items() if reading.text(a) == name), None)
        if found is not None:
            return found
    return name


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
          cut_file: str, cut_line: int, alternatives: tuple[Remedy, ...] = ()) -> Claim:
    return Claim(category, why, hint,
                 places.culprit(cut.name, places.kind_of(cut.name),
                                cut.file, cut.stmt.lineno),
                 places.frame_location(cut.failing.site), None,
                 {"cut": places.location(cut_file, cut_line).to_dict()}, remedy, alternatives)


def where(file: str, line: int) -> str:
    return f"{places.user_path(file)}:{line}"
