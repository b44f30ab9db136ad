"""Where a model's graph stops before the loss: the statements that ran a model, whose value
reaches a backward call only through a cut (`.detach()`, `.data`, `.item()` and a re-wrap,
an argmax or a comparison, a no_grad region).

The fact is the difference between two reaching-definition passes over the same statements:
one that follows every value read, one that stops at cuts. A model run in the first and not
in the second lost its graph on the way. Shared by the rules that predict "does not require
grad" (nothing with history is left: AGD116-AGD118) and the silent one (something else still
learns, the cut model never does: AGD119).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from autograd_doctor.lint import facts as f
from autograd_doctor.source import patterns, reading

KINDS = ("no-grad-block", "detached", "rewrapped", "non-differentiable")


@dataclass(frozen=True)
class Cut:
    scope: ast.AST
    back: f.Backward
    model: ast.stmt  # the statement that ran the model
    at: ast.stmt  # where its graph was cut (may be the same statement)
    kind: str  # one of KINDS
    node: ast.expr  # the cutting expression (`x.detach()`, `loss.item()`, ...)
    learning: bool  # does something with history still reach the backward call?
    regrad: bool  # is something on the way made to require grad again?


def cuts(facts: f.FileFacts) -> Iterator[Cut]:
    for scope in f.scopes(facts.tree):
        body = f.body_statements(scope)
        for back in f.backwards(scope):
            if isinstance(back.call.func, ast.Attribute) and back.call.func.attr in (
                    "backward", "manual_backward"):
                yield from _cuts_at(facts, scope, body, back)


def _cuts_at(facts: f.FileFacts, scope: ast.AST, body: list[ast.stmt],
             back: f.Backward) -> Iterator[Cut]:
    live = f.flow(body, until=back.call)
    full = f.flow(body, until=back.call, every=True)
    live_ids = live.of(back.target)
    full_ids = full.of(back.target)
    alive = [s for s in f.history_statements(facts, live, live_ids)
             if not f.under_no_grad(scope, s)]
    # A call handed a model (`tap.grab(disc, real)`) may run it: it may bring history.
    handed = any(isinstance(c, ast.Call) and any(reading.text(a) in facts.models
                                                 for a in c.args)
                 for i in live_ids if i in live.by_id
                 and not f.under_no_grad(scope, live.by_id[i])
                 for c in f.live_nodes(f.value_of(live.by_id[i])))
    # A value the function was handed (`log_prob` passed to `learn()`) may carry history
    # from a model this scope never sees: nothing says the loss has none.
    outside = set(reading.parameters(scope)) - {"self", "cls"}
    handed_in = bool(outside & (f.live_names(back.target) | {
        n for i in live_ids if i in live.by_id
        for n in f.live_names(f.value_of(live.by_id[i]))}))
    learning = bool(alive) or handed or handed_in or f.makes_history(facts, back.target)
    chain = [full.by_id[i] for i in full_ids if i in full.by_id]
    switched = switched_on(body)
    regrad = any(regrad_expr(s) or {reading.text(x) for x in reading.targets(s)} & switched
                 for s in chain) or regrad_expr(back.target)
    for model in _runs(facts, full, full_ids):
        if model in alive:
            continue
        found = _where(facts, scope, full, chain, model, back)
        if found is not None:
            at, kind, node = found
            yield Cut(scope, back, model, at, kind, node, learning, regrad)


def _runs(facts: f.FileFacts, defs: f.Defs, ids: frozenset[int]) -> list[ast.stmt]:
    """The statements among `ids` that run a model, whatever happens to the result."""
    found = [defs.by_id[i] for i in ids if i in defs.by_id]
    return sorted((s for s in found if any(isinstance(c, ast.Call) and f.is_forward(facts, c)
                                           for c in f.nodes_of(s))), key=lambda s: s.lineno)


def _where(facts: f.FileFacts, scope: ast.AST, full: f.Defs, chain: list[ast.stmt],
           model: ast.stmt, back: f.Backward) -> tuple[ast.stmt, str, ast.expr] | None:
    if f.under_no_grad(scope, model):
        value = getattr(model, "value", None)
        return (model, "no-grad-block", value) if isinstance(value, ast.expr) else None
    made = {reading.text(t) for t in reading.targets(model)}
    # The statements between the model and the loss that carry its value, in order.
    carriers = sorted((s for s in chain if s is model or id(model) in full.sources.get(
        id(s), frozenset())), key=lambda s: s.lineno)
    for stmt in carriers:
        value = getattr(stmt, "value", None)
        if value is None:
            continue
        own = stmt is model
        found = _cutting(facts, value, made if not own else None)
        if found is None and own:  # `[float(e) for e in model(x)]`: cut inside a comprehension
            found = _cutting(facts, value, _iterating_a_model(facts, value))
        if found is not None:
            return stmt, found[0], found[1]
        made |= {reading.text(t) for t in reading.targets(stmt)}
    found = _cutting(facts, back.target, made)
    if found is not None:
        statement = next((s for s in f.body_statements(scope) if reading.inside(back.call, s)),
                         None)
        if statement is not None:
            return statement, found[0], found[1]
    return None


def _iterating_a_model(facts: f.FileFacts, value: ast.AST) -> set[str]:
    """Names a comprehension binds to the elements of a model's output."""
    return {n.id for c in ast.walk(value) if isinstance(c, ast.comprehension) and any(
        isinstance(k, ast.Call) and f.is_forward(facts, k) for k in ast.walk(c.iter))
        for n in ast.walk(c.target) if isinstance(n, ast.Name)}


def _cutting(facts: f.FileFacts, value: ast.AST, names: set[str] | None
             ) -> tuple[str, ast.expr] | None:
    """The first cut in `value` applied to one of `names` (or, with None, to a model call
    inside it), and its kind."""
    for node in ast.walk(value):
        inner: ast.AST | None = None
        kind = ""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("detach", "detach_"):
            inner, kind = node.func.value, "detached"
        elif isinstance(node, ast.Attribute) and node.attr == "data" and isinstance(
                node.ctx, ast.Load):
            inner, kind = node.value, "detached"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in patterns.LEAVING_METHODS:
            inner, kind = node.func.value, "rewrapped"
        elif isinstance(node, ast.Call) and reading.text(node.func) in (
                "float", "int") + patterns.REWRAP_CALLS:
            inner, kind = (node.args[0] if node.args else None), "rewrapped"
        elif patterns.non_differentiable(node):
            inner, kind = node, "non-differentiable"
        elif isinstance(node, ast.Call) and f.callee_name(node) in facts.no_grad_functions:
            inner, kind = node, "no-grad-block"  # a helper run without recording
        elif isinstance(node, ast.Call) and f.returns_plain(node):
            inner, kind = node, "rewrapped"  # a helper that hands back a value left torch
        if inner is None or not isinstance(node, ast.expr):
            continue
        if names is None:
            if any(isinstance(c, ast.Call) and f.is_forward(facts, c) for c in ast.walk(inner)):
                return kind, node
        elif reading.names_in(inner) & names:
            return kind, node
    return None


def regrad_expr(node: ast.AST) -> bool:
    """`requires_grad_()`, `requires_grad=True`, `x.requires_grad = True` in `node`."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                n.func.attr == "requires_grad_" and not (
                n.args and isinstance(n.args[0], ast.Constant) and n.args[0].value is False):
            return True
        if isinstance(n, ast.keyword) and n.arg == "requires_grad" and isinstance(
                n.value, ast.Constant) and n.value.value is True:
            return True
    return False


def optimized(facts: f.FileFacts, stmt: ast.stmt) -> str:
    """The model run by `stmt` whose parameters an optimizer of this file holds ("" if
    none): a model nobody optimizes (a teacher, a target network) may be cut on purpose."""
    held = {m for models in facts.optimizers.values() for m in models}
    for call in f.nodes_of(stmt):
        if isinstance(call, ast.Call) and f.is_forward(facts, call):
            func = reading.text(call.func)
            if any(func == m or func.startswith(m + ".") for m in held):
                return func
    return ""


def reached(facts: f.FileFacts, model: str) -> bool:
    """Does any backward call of the file reach a live run of `model`?"""
    return any(_reaches(facts, scope, model) for scope in f.scopes(facts.tree))


def _reaches(facts: f.FileFacts, scope: ast.AST, model: str) -> bool:
    body = f.body_statements(scope)
    for back in f.backwards(scope):
        live = f.flow(body, until=back.call)
        for stmt in f.history_statements(facts, live, live.of(back.target)):
            if not f.under_no_grad(scope, stmt) and any(
                    isinstance(c, ast.Call) and _runs_model(reading.text(c.func), model)
                    for c in f.live_nodes(f.value_of(stmt))):
                return True
        if any(isinstance(c, ast.Call) and _runs_model(reading.text(c.func), model)
               for c in f.live_nodes(back.target)):
            return True
    return False


def _runs_model(func: str, model: str) -> bool:
    """Does calling `func` run `model`: itself, one of its methods (`model.step`), or a
    model that contains it (`model(x)` runs `model.head`)?"""
    return func == model or func.startswith(model + ".") or model.startswith(func + ".")


def failing(facts: f.FileFacts, kind: str) -> Iterator[Cut]:
    """Cuts of `kind` after which nothing with history reaches the backward call: it raises
    "element 0 of tensors does not require grad". One per backward call."""
    seen: set[int] = set()
    for cut in cuts(facts):
        if cut.kind == kind and not cut.learning and not cut.regrad and \
                id(cut.back.call) not in seen:
            seen.add(id(cut.back.call))
            yield cut


def fix_for(cut: Cut) -> tuple[str, str, tuple[tuple[str, ast.AST, str], ...]]:
    """(strategy, description, edits as (kind, node, text)) that undo a cut."""
    if cut.kind == "detached":
        kept: ast.AST = cut.node
        if isinstance(cut.node, ast.Call) and isinstance(cut.node.func, ast.Attribute):
            kept = cut.node.func.value  # x.detach() -> x
        elif isinstance(cut.node, ast.Attribute):
            kept = cut.node.value  # x.data -> x
        return ("remove-detach", "keep the graph: drop the detach",
                (("replace", cut.node, reading.text(kept)),))
    if cut.kind == "rewrapped":
        kept_in_torch = patterns.in_torch(cut.at)
        edits = (("replace-statement", cut.at, ast.unparse(kept_in_torch)),) \
            if kept_in_torch is not None else ()
        return "keep-in-torch", "compute it with torch operations, as a tensor", edits
    if cut.kind == "no-grad-block":
        return "move-out-of-no-grad", "run this forward outside no_grad", ()
    return "straight-through-estimator", "use a differentiable surrogate", ()


def switched_on(body: list[ast.stmt]) -> set[str]:
    """Names switched on later: `y.requires_grad = True`, `y.requires_grad_()`."""
    names = set()
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Attribute) and t.attr == "requires_grad"
                for t in stmt.targets) and isinstance(stmt.value, ast.Constant) \
                and stmt.value.value is True:
            names |= {reading.text(t.value) for t in stmt.targets
                      if isinstance(t, ast.Attribute)}
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and \
                call.func.attr == "requires_grad_" and not (
                call.args and isinstance(call.args[0], ast.Constant)
                and call.args[0].value is False):
            names.add(reading.text(call.func.value))
    return names
