"""Repeated backward: the same loss is backwarded twice, by a duplicated call or by a
closure or helper that runs more than once.

The first call freed the loss's graph; the second call starts from the very same graph.
This often comes from a duplicated line (a `loss.backward()` left in a helper and in the
loop), or from an LBFGS closure that backwards a loss computed outside it: LBFGS calls the
closure several times per step, and the loss must be recomputed inside it each time.

`retain_graph=True` would make the second call add the same gradients a second time
(doubling them), which is rarely what was meant. Remove the duplicate call, or compute the
loss inside the closure.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.backward_twice.evidence import (
    BEFORE_LOOP,
    Evidence,
    Suspect,
    claim,
    common_frame,
    describe_call,
    recompute_in_loop,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.operations import (
    Delete,
    Insert,
    Move,
    Operation,
    Remedy,
    Replace,
    character_column,
    replace_node,
)
from autograd_doctor.edits.strategies import retain_graph
from autograd_doctor.graph.objects import resolve
from autograd_doctor.source import patterns, places, reading
from autograd_doctor.source.places import FrameInfo

CATEGORY = "repeated-backward"
CULPRIT = "loss"
CULPRIT_LINE = 8  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=0.1, max_iter=4)
x, y = torch.randn(16, 4), torch.randn(16, 1)
loss = nn.functional.mse_loss(model(x), y)


def closure():
    opt.zero_grad()
    loss.backward()
    return loss


for step in range(2):
    opt.step(closure)
"""

FIXED = BROKEN.replace(
    "loss = nn.functional.mse_loss(model(x), y)\n\n\ndef closure():\n    opt.zero_grad()\n",
    "\n\ndef closure():\n    opt.zero_grad()\n    loss = nn.functional.mse_loss(model(x), y)\n")


def match(ev: Evidence) -> Claim | None:
    if not ev.root_stale and not _in_stepped_closure(ev):
        return None
    suspect = ev.primary
    remedy = None
    assigned = None
    reason = "the same loss is backwarded twice"
    if suspect is not None:
        closure = _closure_fix(ev, suspect)
        if closure is not None:
            remedy, assigned = closure
            reason = (f"`{suspect.expression}` is computed outside the closure that backwards "
                      f"it, and the closure runs more than once (LBFGS calls it several times "
                      f"per step). Compute the loss inside the closure")
    if remedy is None and suspect is not None and ev.storage == BEFORE_LOOP \
            and ev.failing_in_loop and ev.per_optimizer is None:
        placement = places.place(suspect.frame, suspect.expression)
        # Only a loop that steps the weights between its backwards needs the loss anew at
        # each iteration; one that does not backwards it once (below).
        if placement is not None and placement.stores_before_loop and placement.loop \
                and patterns.steps_in(placement.loop):
            assigned = (placement.file, placement.stores_before_loop[-1].lineno)
            remedy = recompute_in_loop(ev, placement, placement.stores_before_loop[-1],
                                       suspect)
            reason = (f"`{suspect.expression}` is computed once, before the loop that "
                      f"backwards it at each iteration; compute it inside the loop")
    if remedy is None and ev.per_optimizer is not None:
        remedy = _backward_once(ev, ev.per_optimizer)
        if remedy is not None:
            reason = ("the loop runs backward on the same loss once for each optimizer; "
                      "backward once, then step every optimizer")
    hint = "retain_graph=True would add the same gradients a second time."
    if remedy is None and ev.freeing is not None and ev.freeing.api != ev.failing.api:
        # A backward and an autograd.grad of one loss ask for different gradients (the
        # weights', an input's): neither is extra, so the first keeps the graph.
        pair = common_frame(ev.freeing, ev.failing)
        stmt = pair[0].statement if pair is not None else None
        remedy = retain_graph(pair[0].file, stmt, "keep the graph for the second call "
                              "(retain_graph=True on the first)") if pair and stmt else None
        if remedy is not None:
            reason = ("one call is a backward and the other an autograd.grad of the same "
                      "loss, each wanting its own gradients; keep the graph in the first")
            hint = ("Removing either call loses the gradients it computes; retain_graph=True "
                    "on the first keeps the graph until the second is done.")
    if remedy is None:
        remedy = _remove_duplicate(ev)
        if remedy is not None:
            reason = ("the second call backwards the same loss again; remove it (gradients "
                      "are already accumulated)")
    if remedy is None:
        remedy = _once_after_loop(ev)
        if remedy is not None:
            reason = ("the call sits in a loop that does not compute its loss again, so each "
                      "iteration backwards the same loss; call it once, after the loop")
    if assigned is None and suspect is not None:
        # Where the loss was made: a `training_step` that computed and backwarded it says
        # more than the trainer loop that received it.
        made = _made_where_first_backwarded(ev)
        if made is not None:
            suspect, assigned = made
    if assigned is None and suspect is not None:
        placement = places.place(suspect.frame, suspect.expression)
        if placement is not None and placement.stores:
            before = [s for s in placement.stores if s.lineno <= placement.line]
            assigned = (placement.file, (before or placement.stores)[-1].lineno)
    why = (
        f"{describe_call(ev, 'failing').capitalize()} starts from a graph that "
        f"{describe_call(ev, 'freeing')} already went through and freed: {reason}."
    )
    return claim(ev, CATEGORY, why, hint, suspect, assigned, remedy)


def _in_stepped_closure(ev: Evidence) -> bool:
    """Did the failing call run in a closure the optimizer's `step` calls several times?
    Whatever it reads from outside (a term computed once per step) is then backwarded again
    at each evaluation, however fresh the loss built from it."""
    site = ev.failing.site
    inner = site.scope if site is not None else None
    tree = reading.parse(site.file) if site is not None else None
    if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree is None:
        return False
    outer = reading.enclosing_function(tree, inner) or tree
    return patterns.handed_to_step(outer, inner.name)


def _made_where_first_backwarded(ev: Evidence) -> tuple[Suspect, tuple[str, int]] | None:
    freeing = ev.freeing
    if freeing is None or not freeing.frames:
        return None
    roots = set(ev.failing.roots)
    frame = freeing.frames[0]
    for index, binding in freeing.bindings:
        if index != 0 or binding.node not in roots:
            continue
        placement = places.place(frame, binding.expression)
        stores = [s for s in placement.stores if s.lineno <= frame.line] if placement else []
        if placement is not None and stores:
            kind = "attribute" if "." in binding.expression else "local"
            suspect = Suspect(binding.expression, kind, frame, "T", [binding.node], [])
            return suspect, (placement.file, stores[-1].lineno)
    return None


def _closure_fix(ev: Evidence, suspect: Suspect) -> tuple[Remedy, tuple[str, int]] | None:
    """The loss is a free variable of the function that backwards it: move its computation
    (and whatever before it built the freed graph) into that function."""
    site = ev.failing.site
    if site is None:
        return None
    inner = site.scope
    tree = reading.parse(site.file)
    if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree is None \
            or reading.stores(inner, suspect.expression):
        return None
    if suspect.expression in reading.parameters(inner):
        return _handed_in(ev, suspect, inner)
    block = reading.block_of(tree, inner)
    if block is None:
        return None
    stores = [s for s in block if s.lineno < inner.lineno and any(
        reading.text(t) == suspect.expression for t in reading.targets(s))]
    if not stores:
        return None
    chain = _chain(ev, block, stores[-1], inner.lineno)
    target = reading.statement_at(inner, site.line)
    if target is None:
        return None
    # A term read before the backward (`total = w * content_loss + ...`) is computed before
    # that read.
    target = next((s for s in inner.body if s.lineno < target.lineno
                   and suspect.expression in reading.names_in(s)), target)
    indent = reading.indent_of(site.file, target.lineno)
    later = [n for stmt in block if stmt.lineno > (inner.end_lineno or inner.lineno)
             for n in ast.walk(stmt)]
    reads_after = [n for n in later if isinstance(n, ast.Name)
                   and n.id == suspect.expression]
    ops: tuple[Operation, ...]
    if reads_after:
        ops = tuple(Insert(site.file, target.lineno, reading.segment(site.file, s), indent)
                    for s in chain)
    else:
        ops = tuple(Move(site.file, s.lineno, s.end_lineno or s.lineno, target.lineno, indent)
                    for s in chain)
    remedy = Remedy(
        strategy="recompute-in-closure",
        description=f"compute {suspect.expression} inside {site.function}() each time it runs",
        file=site.file,
        line=target.lineno,
        operations=ops,
    )
    return remedy, (site.file, stores[-1].lineno)


def _handed_in(ev: Evidence, suspect: Suspect, inner: ast.FunctionDef | ast.AsyncFunctionDef
               ) -> tuple[Remedy, tuple[str, int]] | None:
    """The closure takes the loss as an argument bound once by its caller
    (`opt.step(functools.partial(self._closure, loss))`): the closure computes it itself
    (the statement that made it moves in), the parameter goes, and the caller hands over
    the plain closure."""
    site = ev.failing.site
    name = suspect.expression
    caller = next((f for f in ev.failing.frames[1:] if f.scope is not None
                   and f.statement is not None and f.file == site.file), None) \
        if site is not None else None
    if site is None or caller is None or caller.scope is None or caller.statement is None:
        return None
    bound = next((c for c in ast.walk(caller.statement) if isinstance(c, ast.Call)
                  and reading.text(c.func).rsplit(".", 1)[-1] == "partial" and len(c.args) == 2
                  and not c.keywords and reading.text(c.args[1]) == name
                  and reading.text(c.args[0]).rsplit(".", 1)[-1] == inner.name), None)
    stores = [st for st in reading.stores(caller.scope, name) if st.lineno < caller.line
              and isinstance(st, ast.Assign) and len(st.targets) == 1]
    params = inner.args.args
    at = next((i for i, a in enumerate(params) if a.arg == name), None)
    target = reading.statement_at(inner, site.line)
    if bound is None or not stores or at is None or target is None or inner.args.defaults:
        return None
    store = stores[-1]
    # What the closure's running frame can read: its arguments, its module, the builtins.
    live = next((f for f in ev.failure.frames if f.f_code.co_filename == site.file
                 and f.f_code.co_name == inner.name), None)
    if live is None or not all(n.id in live.f_locals or n.id in live.f_globals
                               or n.id in live.f_builtins
                               for n in ast.walk(store.value) if isinstance(n, ast.Name)):
        return None  # the computation needs names the closure does not have
    file, arg = site.file, params[at]
    # The parameter goes with the comma before it (`self, loss`), or after it (`loss, x`).
    start = (params[at - 1].end_lineno or 0, params[at - 1].end_col_offset or 0) if at else \
        (arg.lineno, arg.col_offset)
    end = (arg.end_lineno or 0, arg.end_col_offset or 0) if at or len(params) == 1 else \
        (params[1].lineno, params[1].col_offset)
    ops: tuple[Operation, ...] = (
        replace_node(file, bound, reading.segment(file, bound.args[0])),
        Replace(file, start[0], character_column(file, *start), end[0],
                character_column(file, *end), ""),
        # Moved in, or copied in where the caller reads it again afterwards (a log line).
        Insert(file, target.lineno, reading.segment(file, store),
               reading.indent_of(file, target.lineno))
        if any(r.lineno > caller.line for r in reading.reads(caller.scope, name)) else
        Move(file, store.lineno, store.end_lineno or store.lineno, target.lineno,
             reading.indent_of(file, target.lineno)),
    )
    return (Remedy("recompute-in-closure", f"compute {name} inside {inner.name}() each time "
                   "it runs", file, target.lineno, ops), (caller.file, store.lineno))


def _chain(ev: Evidence, block: list[ast.stmt], store: ast.stmt, limit: int) -> list[ast.stmt]:
    """The statements of `block` before `limit` that built part of the freed graph."""
    chain = []
    for stmt in block:
        if stmt.lineno >= limit:
            break
        if stmt is store:
            chain.append(stmt)
            continue
        for target in reading.targets(stmt):
            node = getattr(resolve(reading.text(target), ev.live_scopes), "grad_fn", None)
            if node is not None and node in ev.stale:
                chain.append(stmt)
                break
    return chain


def _remove_duplicate(ev: Evidence) -> Remedy | None:
    """Delete the extra call. Usually the later one; but a function that backwards a loss and
    then returns it (a `training_step` under a trainer that calls backward itself) is the one
    whose call is extra."""
    if ev.freeing is None:
        return None
    pair = common_frame(ev.freeing, ev.failing)
    if pair is None or pair[0].line == pair[1].line:
        return None
    frame = ev.freeing.frames[0] if _returns_receiver(ev.freeing.frames[0]) else pair[1]
    # Only a backward call itself is removed: a call that reaches one further in (a
    # callback, a hook runner, an accumulator that scales the loss) does other work the
    # program needs, so the plain call before it is the duplicate.
    if not _plain_backward(frame.statement) and frame is pair[1] \
            and _plain_backward(pair[0].statement):
        frame = pair[0]
    stmt = frame.statement
    if stmt is None or not _plain_backward(stmt):
        return None
    return Remedy(
        strategy="remove-duplicate-backward",
        description="remove the extra backward call on the same loss",
        file=frame.file,
        line=stmt.lineno,
        operations=(Delete(frame.file, stmt.lineno, stmt.end_lineno or stmt.lineno),),
    )


def _once_after_loop(ev: Evidence) -> Remedy | None:
    """Both calls ran from one line, in a loop that neither computes the loss again nor
    steps an optimizer (`total.backward()` indented into the loop over the per-track
    meters): the call moves after the loop, to run once."""
    site = ev.failing.site
    freeing = ev.freeing.site if ev.freeing is not None else None
    scope = site.scope if site is not None else None
    stmt = site.statement if site is not None else None
    if site is None or freeing is None or scope is None or stmt is None or (
            freeing.file, freeing.line) != (site.file, site.line) or not _plain_backward(stmt):
        return None
    loops = reading.loops_around(scope, site.line)
    target = patterns.backwarded(stmt)
    if not loops or target is None:
        return None
    loop = loops[-1]
    root = reading.text(target).split(".")[0].split("[")[0]
    bound = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Store)}
    steps = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in ("step", "zero_grad") for n in ast.walk(loop))
    if root in bound or steps or loop.end_lineno is None:
        return None
    return Remedy("remove-duplicate-backward", "call backward once, after the loop", site.file,
                  stmt.lineno, (Move(site.file, stmt.lineno, stmt.end_lineno or stmt.lineno,
                                     loop.end_lineno + 1,
                                     reading.indent_of(site.file, loop.lineno)),))


def _plain_backward(stmt: ast.stmt | None) -> bool:
    return isinstance(stmt, ast.Expr) and patterns.backwarded(stmt) is not None


def _returns_receiver(frame: FrameInfo) -> bool:
    scope = frame.scope
    stmt = frame.statement
    receiver = reading.call_receiver(stmt, "backward") if stmt is not None else None
    if scope is None or receiver is None or frame.function == "<module>":
        return False
    name = reading.text(receiver)
    return any(isinstance(n, ast.Return) and n.value is not None and reading.text(n.value) == name
               for n in reading.own_nodes(scope))


def _backward_once(ev: Evidence, loop: ast.For) -> Remedy | None:
    """`for opt in opts: opt.zero_grad(); loss.backward(); opt.step()` becomes the loop up
    to the backward call, the call once, then the loop over what follows it."""
    site = ev.failing.site
    if site is None or loop.orelse:
        return None
    file = site.file
    at = next((i for i, s in enumerate(loop.body) if s.lineno <= site.line <= (
        s.end_lineno or s.lineno)), None)
    if at is None or not isinstance(loop.body[at], ast.Expr) or patterns.backwarded(
            loop.body[at]) is None:
        return None
    header = reading.segment(file, loop).splitlines()[0]
    outer = reading.indent_of(file, loop.lineno)

    def block(statements: list[ast.stmt]) -> list[str]:
        if not statements:
            return []
        text = "".join(reading.lines(file)[statements[0].lineno - 1:
                                           statements[-1].end_lineno or statements[-1].lineno])
        return [header] + [line.removeprefix(outer) for line in text.splitlines()]

    call = reading.segment(file, loop.body[at]).strip()
    new = block(loop.body[:at]) + [call] + block(loop.body[at + 1:])
    end = loop.end_lineno or loop.lineno
    return Remedy(
        strategy="remove-duplicate-backward",
        description="backward once, then step each optimizer",
        file=file,
        line=loop.lineno,
        operations=(Delete(file, loop.lineno, end), Insert(file, end + 1, "\n".join(new),
                                                            outer)),
    )
