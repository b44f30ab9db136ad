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

from autograd_doctor.capture.ledger import FrameInfo
from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.common import describe_call, finding
from autograd_doctor.diagnosis.precomputed_outside_loop import root_precomputed, root_suspect
from autograd_doctor.diagnosis.remedy import Delete, Diagnosis, Insert, Move, Operation, Remedy
from autograd_doctor.diagnosis.stale import Evidence, Suspect, common_frame, resolve
from autograd_doctor.graph import source

ERROR = "backward-twice"
CATEGORY = "repeated-backward"
CULPRIT = "loss"

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


def match(ev: Evidence) -> Diagnosis | None:
    if not ev.root_stale or root_precomputed(ev):
        return None
    suspect = root_suspect(ev)
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
    if remedy is None:
        remedy = _remove_duplicate(ev)
        if remedy is not None:
            reason = ("the second call backwards the same loss again; remove it (gradients "
                      "are already accumulated)")
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
    message = (
        f"{describe_call(ev, 'failing').capitalize()} starts from a graph that "
        f"{describe_call(ev, 'freeing')} already went through and freed: {reason}. "
        f"retain_graph=True would add the same gradients a second time."
    )
    return finding(ev, CATEGORY, message, suspect, assigned, remedy)


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
            suspect = Suspect(binding.expression, "local", frame, "T", [binding.node], [])
            return suspect, (placement.file, stores[-1].lineno)
    return None


def _closure_fix(ev: Evidence, suspect: Suspect) -> tuple[Remedy, tuple[str, int]] | None:
    """The loss is a free variable of the function that backwards it: move its computation
    (and whatever before it built the freed graph) into that function."""
    site = ev.failing.site
    if site is None:
        return None
    inner = source.scope_of(site.file, site.function, site.first_line)
    tree = source.parse(site.file)
    if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree is None \
            or source.stores(inner, suspect.expression):
        return None
    block = _block_holding(tree, inner)
    if block is None:
        return None
    stores = [s for s in block if s.lineno < inner.lineno and any(
        source.text(t) == suspect.expression for t in source.targets(s))]
    if not stores:
        return None
    chain = _chain(ev, block, stores[-1], inner.lineno)
    target = source.statement_at(inner, site.line)
    if target is None:
        return None
    indent = source.indent_of(site.file, target.lineno)
    later = [n for stmt in block if stmt.lineno > (inner.end_lineno or inner.lineno)
             for n in ast.walk(stmt)]
    reads_after = [n for n in later if isinstance(n, ast.Name)
                   and n.id == suspect.expression]
    ops: tuple[Operation, ...]
    if reads_after:
        ops = tuple(Insert(site.file, target.lineno, source.segment(site.file, s), indent)
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


def _block_holding(tree: ast.AST, inner: ast.AST) -> list[ast.stmt] | None:
    """The statement list (a body) that directly holds `inner`."""
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and inner in block:
                return block
    return None


def _chain(ev: Evidence, block: list[ast.stmt], store: ast.stmt, limit: int) -> list[ast.stmt]:
    """The statements of `block` before `limit` that built part of the freed graph."""
    chain = []
    for stmt in block:
        if stmt.lineno >= limit:
            break
        if stmt is store:
            chain.append(stmt)
            continue
        for target in source.targets(stmt):
            node = getattr(resolve(source.text(target), ev.live_scopes), "grad_fn", None)
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
    scope = source.scope_of(frame.file, frame.function, frame.first_line)
    stmt = source.statement_at(scope, frame.line) if scope is not None else None
    if not isinstance(stmt, ast.Expr):
        return None
    return Remedy(
        strategy="remove-duplicate-backward",
        description="remove the extra backward call on the same loss",
        file=frame.file,
        line=stmt.lineno,
        operations=(Delete(frame.file, stmt.lineno, stmt.end_lineno or stmt.lineno),),
    )


def _returns_receiver(frame: FrameInfo) -> bool:
    scope = source.scope_of(frame.file, frame.function, frame.first_line)
    stmt = source.statement_at(scope, frame.line) if scope is not None else None
    receiver = source.call_receiver(stmt, "backward") if stmt is not None else None
    if scope is None or receiver is None or frame.function == "<module>":
        return False
    name = source.text(receiver)
    return any(isinstance(n, ast.Return) and n.value is not None and source.text(n.value) == name
               for n in source.own_nodes(scope))
