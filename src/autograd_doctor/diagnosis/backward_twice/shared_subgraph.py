"""Shared subgraph: two backward calls in one step go through a common part of the graph.

Two losses built on one forward (a shared trunk, the generator's output in a GAN) each
call backward. The first call frees the shared part; the second reaches it again.

Which fix is right depends on what each loss is meant to train, and the tool decides it
from the optimizer steps it saw:
- a GAN discriminator step on `fake` without `.detach()`: the discriminator's optimizer
  steps between the two calls and does not own the generator, so the discriminator loss
  must see `fake.detach()` (it should not train the generator at all);
- two losses meant to train the same weights, with no step in between: add them and
  call backward once (or keep the graph for the second call with `retain_graph=True` on
  the first, when something between the two calls needs the first loss's gradients).
`loss.clone().detach().requires_grad_()` makes the error go away by training nothing.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.diagnosis.backward_twice.evidence import (
    Evidence,
    Suspect,
    claim,
    common_frame,
    describe_call,
    stores_of,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import (
    Delete,
    Insert,
    Move,
    Operation,
    Remedy,
    replace_node,
)
from autograd_doctor.edits.strategies import retain_graph, with_keywords
from autograd_doctor.graph.objects import resolve
from autograd_doctor.graph.walk import leaves, walk
from autograd_doctor.source import patterns, places, reading
from autograd_doctor.source.places import FrameInfo

CATEGORY = "shared-subgraph"
CULPRIT = "fake"
CULPRIT_LINE = 11  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
G, D = nn.Linear(2, 4), nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
bce = nn.BCELoss()
for step in range(3):
    real, z = torch.randn(8, 4), torch.randn(8, 2)
    fake = G(z)
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake), torch.zeros(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""

FIXED = BROKEN.replace("bce(D(fake), torch.zeros", "bce(D(fake.detach()), torch.zeros")


def match(ev: Evidence) -> Claim | None:
    suspect = ev.primary
    if ev.root_stale or not ev.same_step or suspect is None or ev.freeing is None:
        return None
    upstream = {id(p) for p in ev.upstream}
    stepped = ev.stepped_params()
    assigned = _assigned(ev, suspect)
    if ev.steps_between and upstream and not (upstream & stepped):
        remedy = _detach_input(ev, suspect, ev.freeing, after=None)
        hint = (
            f"An optimizer step between the two calls updates other weights than the ones "
            f"behind `{suspect.expression}`: the first loss is not meant to train them. Use "
            f"`{suspect.expression}.detach()` in that loss (the discriminator step of a GAN) "
            f"so it stops at `{suspect.expression}` and leaves its graph for the second loss.")
    elif ev.steps_between and upstream and upstream <= stepped:
        remedy = _detach_input(ev, suspect, ev.failing, after=ev.freeing)
        hint = (
            f"The first loss already trained the weights behind `{suspect.expression}` and "
            f"the optimizer stepped them; the second loss is not meant to train them again. "
            f"Use `{suspect.expression}.detach()` in the second loss.")
    elif ev.freeing.api == "grad":
        remedy = _keep_for_grad(ev)
        hint = (
            "The first call is torch.autograd.grad, which frees the graph like backward. "
            "When its result feeds the loss (a gradient penalty) it must be differentiable: "
            "create_graph=True, which also keeps the graph; otherwise keep the graph with "
            "retain_graph=True.")
    elif not ev.steps_between and _gradients_dropped(ev) and (
            probe := _detach_input(ev, suspect, ev.freeing, after=None)) is not None:
        remedy = probe
        hint = (
            f"The weights' gradients from the first call are thrown away (zero_grad before the "
            f"second): it is a probe (for an input's gradient), not a loss that trains them. "
            f"Use `{suspect.expression}.detach()` in it, so it leaves the graph behind "
            f"`{suspect.expression}` to the loss that trains.")
    elif not ev.steps_between:
        remedy = _sum_losses(ev) or _retain_first(ev)
        how = ("add the two losses and call backward once" if remedy and
               remedy.strategy == "sum-losses" else
               "keep the graph for the second call with retain_graph=True on the first "
               "(something between the calls uses the first loss's gradients)")
        hint = (
            f"Both losses are meant to train the weights behind `{suspect.expression}`: "
            f"{how}. Detaching `{suspect.expression}` would stop one loss from training them.")
    else:
        remedy = _recompute_after_step(ev, suspect)
        hint = (
            f"An optimizer step between the two calls updates part of the graph behind "
            f"`{suspect.expression}` (a discriminator's output reused for the generator "
            f"loss). The first loss must not reach the part it does not train, and the second "
            f"must see the weights after the step: detach the untrained input in the first "
            f"loss and compute `{suspect.expression}` again after the step.")
    said = claim(ev, CATEGORY, _why(ev, suspect), hint, suspect, assigned, remedy)
    again = _compute_again(ev, suspect) if ev.steps_between else None
    if again is None or (remedy is not None and remedy.operations == again.operations):
        return said
    # Which of detaching and computing again keeps every weight learning depends on what
    # each optimizer holds: verification tries both, in this order.
    return replace(said, remedy=remedy or again,
                   alternatives=(again,) if remedy is not None else ())


def _gradients_dropped(ev: Evidence) -> bool:
    """Are the weights' gradients from the freeing call cleared before the failing call
    (`model.zero_grad()` after a power iteration's backward, `optimizer.zero_grad()` before
    the real loss's)? Then that call trained nothing: it only read an input's gradient."""
    freeing = ev.freeing
    if freeing is None or not freeing.frames:
        return False
    spans = []
    pair = common_frame(freeing, ev.failing)
    if pair is not None:
        spans.append((pair[0], pair[0].line, pair[1].line))
    inner = freeing.frames[0]
    scope = inner.scope
    # The rest of a helper that made the first call (past its return, the caller goes on).
    if scope is not None and (pair is None or not inner.same_code(pair[0])):
        spans.append((inner, inner.line, getattr(scope, "end_lineno", inner.line) or inner.line))
    for frame, start, end in spans:
        for stmt in reading.statements(frame.scope) if frame.scope is not None else ():
            if start < stmt.lineno < end and any(
                    isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr == "zero_grad" for n in ast.walk(stmt)):
                return True
    return False


def _compute_again(ev: Evidence, suspect: Suspect) -> Remedy | None:
    """`feats = tower(u, i)` again after the first loss's step, before the second loss
    reads it: both losses train the shared weights, each at the weights it sees."""
    placement = places.place(suspect.frame, suspect.expression)
    freeing, failing = ev.freeing, ev.failing.site
    if placement is None or freeing is None or freeing.site is None or failing is None \
            or not freeing.site.same_code(suspect.frame) \
            or not failing.same_code(suspect.frame):
        return None
    file, scope = placement.file, placement.scope
    stores = [s for s in placement.stores if s.lineno < freeing.site.line]
    if not stores or not isinstance(getattr(stores[-1], "value", None), ast.Call):
        return None
    store = stores[-1]
    # After the step when the step is in this function (else after the first call).
    after = max([freeing.site.line, *(st.site.line for st in ev.steps_between
                                      if st.site is not None and st.site.same_code(failing))])
    later = [r for r in reading.reads(scope, suspect.expression)
             if after < r.lineno <= failing.line]
    target = reading.statement_at(scope, later[0].lineno) if later else None
    if target is None or not reading.siblings(scope, store, target):
        return None
    return Remedy("recompute-after-step",
                  f"compute {suspect.expression} again after the step, for the second loss",
                  file, target.lineno,
                  (Insert(file, target.lineno, reading.segment(file, store),
                          reading.indent_of(file, target.lineno)),))


def _keep_for_grad(ev: Evidence) -> Remedy | None:
    """`torch.autograd.grad(...)` freed the graph the loss still needs: create_graph=True
    when the gradient feeds the loss (a penalty), else retain_graph=True."""
    site = ev.freeing.site if ev.freeing else None
    failing = ev.failing.site
    if site is None or failing is None:
        return None
    scope = site.scope
    stmt = site.statement
    call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call)
                 and reading.text(n.func).endswith("grad")), None) if stmt else None
    if call is None or scope is None or stmt is None or any(
            k.arg in ("create_graph", "retain_graph") for k in call.keywords):
        return None
    used = _feeds_failing_loss(ev, stmt)
    keyword = "create_graph=True" if used else "retain_graph=True"
    return Remedy(
        "create-graph" if used else "retain-graph-first-call",
        "make the gradient differentiable (create_graph=True keeps the graph)" if used
        else "keep the graph for the second call (retain_graph=True on the first)",
        site.file, call.lineno, (with_keywords(site.file, call, add=(keyword,)),))


def _feeds_failing_loss(ev: Evidence, stmt: ast.stmt) -> bool:
    """Does the gradient that `stmt` computes reach the loss of the failing call: read
    later in the same function, or returned by a helper (`r1 = r1_penalty(d_real, real)`)
    whose result the caller reads before its failing call?"""
    failing = ev.failing.site
    frames = ev.freeing.frames if ev.freeing else ()
    made = {reading.text(t) for t in reading.targets(stmt)}
    line = stmt.lineno
    for frame in frames[:3]:
        scope = frame.scope
        if scope is None or not made:
            return False
        later = [s for s in reading.statements(scope) if s.lineno > line]
        if failing is not None and frame.same_code(failing):
            return any(made & reading.names_in(s) for s in later if s.lineno <= failing.line)
        # Follow the value through the helper to what it returns, then up to the caller.
        flowing = set(made)
        for s in later:
            if flowing & reading.names_in(s):
                if isinstance(s, ast.Return):
                    break
                flowing |= {reading.text(t) for t in reading.targets(s)}
        else:
            return False
        caller = frames[frames.index(frame) + 1] if frame is not frames[-1] else None
        if caller is None or caller.statement is None:
            return False
        made = {reading.text(t) for t in reading.targets(caller.statement)}
        line = caller.statement.lineno
    return False


def _recompute_after_step(ev: Evidence, suspect: Suspect) -> Remedy | None:
    """`d_fake = D(fake)` used by both losses, with D stepped in between: the first loss uses
    `D(fake.detach())`, and `d_fake = D(fake)` moves after the step, before the second."""
    placement = places.place(suspect.frame, suspect.expression)
    freeing, failing = ev.freeing, ev.failing.site
    if placement is None or freeing is None or freeing.site is None or failing is None \
            or not freeing.site.same_code(suspect.frame):
        return None
    file, scope = placement.file, placement.scope
    stores = [s for s in placement.stores if s.lineno < freeing.site.line]
    store = stores[-1] if stores else None
    value = getattr(store, "value", None)
    if store is None or not isinstance(value, ast.Call):
        return None
    stepped = ev.stepped_params()
    untrained = [a for a in value.args if isinstance(a, ast.Name) and _untrained(
        resolve(a.id, ev.live_scopes), stepped)]
    if not untrained:
        return None
    text = reading.segment(file, value)
    for arg in untrained:
        text = re.sub(rf"\b{arg.id}\b", f"{arg.id}.detach()", text)
    first = [r for r in _input_reads(scope, suspect.expression)
             if store.lineno < r.lineno <= freeing.site.line]
    later = [r for r in reading.reads(scope, suspect.expression)
             if freeing.site.line < r.lineno <= failing.line]
    target = reading.statement_at(scope, later[0].lineno) if later else None
    if not first or target is None or not reading.siblings(scope, store, target):
        return None
    ops: list[Operation] = [replace_node(file, r, text) for r in first]
    ops.append(Move(file, store.lineno, store.end_lineno or store.lineno, target.lineno,
                    reading.indent_of(file, target.lineno)))
    return Remedy("recompute-after-step",
                  f"use {text} in the first loss and compute {suspect.expression} after "
                  f"the step", file, store.lineno, tuple(ops))


def _untrained(value: object, stepped: set[int]) -> bool:
    """A tensor with history none of whose trainable leaves the stepped optimizer holds."""
    node = getattr(value, "grad_fn", None)
    if node is None:
        return False
    found = [t for t in leaves(walk([node])) if t.requires_grad]
    return bool(found) and not any(id(t) in stepped for t in found)


def _why(ev: Evidence, suspect: Suspect) -> str:
    return (
        f"`{suspect.expression}` is part of two backward calls in the same step. "
        f"{describe_call(ev, 'freeing').capitalize()} freed the graph behind it, and "
        f"{describe_call(ev, 'failing')} reached that graph again."
    )


def _assigned(ev: Evidence, suspect: Suspect) -> tuple[str, int] | None:
    placement = places.place(suspect.frame, suspect.expression)
    stores = [s for s in placement.stores if s.lineno <= placement.line] if placement else []
    if placement is not None and stores:
        return placement.file, stores[-1].lineno
    if suspect.kind not in ("attribute", "container-element"):
        return None
    # An attribute (or an entry of one) set elsewhere (a forward hook's `self.features =
    # output`, a step's `self.buffers["fake"] = fake`): the one store of a computed value
    # its class makes.
    computed = {(f, st.lineno) for f, _, st, _ in stores_of(ev, suspect)
                if not isinstance(reading.value_span(st), ast.Constant)}
    return computed.pop() if len(computed) == 1 else None


def _detach_input(ev: Evidence, suspect: Suspect, record: BackwardRecord,
                  after: BackwardRecord | None) -> Remedy | None:
    """`.detach()` on the culprit where `record`'s loss reads it (innermost frame first)."""
    entries = set(suspect.entries)
    for i, frame in enumerate(record.frames):
        held = [b for j, b in record.bindings if j == i and b.node in entries]
        # An element of a tuple read whole (`self.D(*self.fake)`): the tuple, detached
        # element by element.
        names = {b.expression: "T" for b in held} | {
            b.root: record.structures.get((i, b.root), "T") for b in held
            if b.kind == "container-element" and b.root != b.expression}
        scope = frame.scope
        if scope is None:
            continue
        start = _start_line(scope, frame, after)
        for expr in sorted(names):
            last_store = [s.lineno for s in reading.stores(scope, expr) if s.lineno < frame.line]
            low = max([start, *last_store])
            reads = [r for r in _input_reads(scope, expr) if low <= r.lineno <= frame.line]
            if not reads and after is not None:
                reads = _reads_for_second_only(scope, expr, max([0, *last_store]), frame,
                                               record, i, after)
            if reads:
                ops = tuple(replace_node(frame.file, r, detached(
                    reading.segment(frame.file, r), names[expr])) for r in reads)
                return Remedy(
                    strategy="detach-input",
                    description=f"use {expr}.detach() in the loss at "
                                f"{places.user_path(frame.file)}:{reads[0].lineno}",
                    file=frame.file,
                    line=reads[0].lineno,
                    operations=ops,
                )
    return None


def _reads_for_second_only(scope: ast.AST, expr: str, low: int, frame: FrameInfo,
                           record: BackwardRecord, index: int,
                           first: BackwardRecord) -> list[ast.expr]:
    """Both losses computed before the first call (`values = self.value_head(features)`
    for the critic, the policy's logits for the actor): the reads of `expr` in statements
    whose result is in the second loss's graph and not in the first's. Detached there, the
    second loss leaves the shared weights to the first, which already trained them."""
    second, first_graph = set(walk(record.roots)), set(walk(first.roots))
    if not second or not first_graph:
        return []
    nodes = {b.expression: b.node for j, b in record.bindings if j == index}
    out = []
    for read in _input_reads(scope, expr):
        stmt = reading.statement_at(scope, read.lineno)
        if stmt is None or not low < read.lineno < frame.line or not isinstance(
                stmt, ast.Assign):
            continue
        made = [nodes.get(reading.text(t)) for t in reading.targets(stmt)]
        if made and all(n is not None and n in second and n not in first_graph
                        for n in made):
            out.append(read)
    return out


def _start_line(scope: ast.AST, frame: FrameInfo, after: BackwardRecord | None) -> int:
    if after is not None:
        for other in after.frames:
            if other.same_code(frame) and other.line < frame.line:
                return other.line + 1
    return getattr(scope, "lineno", 1)


def _input_reads(scope: ast.AST, expr: str) -> list[ast.expr]:
    """Reads of `expr` that feed a computation (call arguments, operands), not `x.size()`."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in reading.own_nodes(scope):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    out = []
    for read in reading.reads(scope, expr):
        parent = parents.get(read)
        if isinstance(parent, (ast.Call, ast.keyword, ast.BinOp, ast.UnaryOp, ast.Tuple,
                               ast.List, ast.Starred)):
            if isinstance(parent, ast.Call) and parent.func is read:
                continue
            out.append(read)
    return out


def _backward_call(frame: FrameInfo | None) -> tuple[ast.stmt, ast.Call] | None:
    stmt = frame.statement if frame is not None else None
    call = patterns.backward_call(stmt) if stmt is not None else None
    return (stmt, call) if stmt is not None and call is not None else None


def _sum_losses(ev: Evidence) -> Remedy | None:
    first, second = ev.freeing, ev.failing
    if first is None or first.site is None or second.site is None \
            or not first.site.same_code(second.site):
        return None
    a, b = _backward_call(first.site), _backward_call(second.site)
    if a is None or b is None or a[1].args or a[1].keywords or b[1].args or b[1].keywords:
        return None
    if first.site.line == second.site.line:
        return _sum_in_loop(ev, second.site, a[0], a[1])
    if not isinstance(a[0], ast.Expr) or _uses_grads_between(ev, first.site, second.site):
        return None
    file = second.site.file
    ra, rb = a[1].func.value, b[1].func.value  # type: ignore[attr-defined]
    ops: list[Operation] = [Delete(file, a[0].lineno, a[0].end_lineno or a[0].lineno)]
    if (isinstance(ra, ast.Call) and isinstance(rb, ast.Call) and len(ra.args) == 1
            and len(rb.args) == 1 and reading.text(ra.func) == reading.text(rb.func)):
        # scaler.scale(l1).backward(); scaler.scale(l2).backward()
        total = f"{reading.segment(file, ra.args[0])} + {reading.segment(file, rb.args[0])}"
        ops.append(replace_node(file, rb.args[0], total))
    else:
        total = f"({reading.segment(file, ra)} + {reading.segment(file, rb)})"
        ops.append(replace_node(file, rb, total))
    return Remedy(
        strategy="sum-losses",
        description="add the two losses and call backward once",
        file=file,
        line=b[0].lineno,
        operations=tuple(ops),
    )


def _sum_in_loop(ev: Evidence, site: FrameInfo, stmt: ast.stmt, call: ast.Call
                 ) -> Remedy | None:
    """`for head in heads: crit(head(feats)).backward()`: add the losses up in the loop and
    backward the sum once after it, when nothing later in the loop reads gradients."""
    scope = site.scope
    loops = reading.loops_around(scope, site.line) if scope is not None else []
    if not loops or not isinstance(stmt, ast.Expr) or scope is None:
        return None
    loop, file = loops[-1], site.file
    end = loop.end_lineno or loop.lineno
    if loop.orelse or any(isinstance(n, ast.Break) for n in ast.walk(loop)) or \
            _uses_grads_between(ev, site, replace(site, line=end + 1)):
        return None
    taken = {n.id for n in ast.walk(scope) if isinstance(n, ast.Name)}
    total = next((n for n in ("total_loss", "loss_sum", "summed_loss") if n not in taken),
                 None)
    if total is None:
        return None
    indent = reading.indent_of(file, loop.lineno)
    loss = reading.segment(file, call.func.value)  # type: ignore[attr-defined]
    return Remedy(
        strategy="sum-losses",
        description="add up the losses in the loop and call backward once after it",
        file=file,
        line=stmt.lineno,
        operations=(Insert(file, loop.lineno, f"{total} = 0", indent),
                    replace_node(file, stmt, f"{total} = {total} + {loss}"),
                    Insert(file, end + 1, f"{total}.backward()", indent)),
    )


_GRAD_WORDS = (".grad", ".step(", "clip_grad", "zero_grad")


def _uses_grads_between(ev: Evidence, first: FrameInfo, second: FrameInfo) -> bool:
    """Does code between the two calls read gradients or step, directly or through a
    function of the user's (then the two calls cannot be merged into one)?"""
    for line in range(first.line + 1, second.line):
        text = reading.line_text(first.file, line)
        if any(word in text for word in _GRAD_WORDS):
            return True
        try:
            calls = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call)]
        except SyntaxError:
            continue
        for call in calls:
            func = resolve(reading.text(call.func), ev.live_scopes)
            code = getattr(func, "__code__", None)
            if code is not None and _mentions_grads(code.co_filename, code.co_firstlineno):
                return True
    return False


def _mentions_grads(file: str, first_line: int) -> bool:
    tree = reading.parse(file)
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and first_line in (
                node.lineno, *[d.lineno for d in node.decorator_list]):
            text = ast.unparse(node)
            return any(word in text for word in _GRAD_WORDS)
    return False


def _retain_first(ev: Evidence) -> Remedy | None:
    first = ev.freeing
    found = _backward_call(first.site if first else None)
    if found is None or first is None or first.site is None:
        return None
    return retain_graph(first.site.file, found[0],
                        "keep the graph for the second call (retain_graph=True on the first)")
