"""Carried state: a tensor computed in one iteration feeds the next.

An RNN's hidden state, a running estimate or the previous output is computed in one
iteration and used again in the next. The backward of the first iteration freed the graph
behind it, so the second iteration's backward, which reaches that graph again through the
carried tensor, fails.

`retain_graph=True` is the wrong fix: every step would then backpropagate through all
earlier steps, getting slower and using more memory without bound, and after an optimizer
step it fails with the in-place modification error instead. The right edit is to cut the
history at the iteration boundary: `h = h.detach()` at the top of the loop body (for an LSTM
`(h, c)` tuple, detach each element). Gradients then flow through the current iteration
only, which is truncated backpropagation through time.
"""

from __future__ import annotations

import ast
from dataclasses import replace

import torch

from autograd_doctor.diagnosis.backward_twice import RETAIN_GRAPH_CARRIED
from autograd_doctor.diagnosis.backward_twice.evidence import (
    ACCUMULATED,
    FED_BACK,
    REBOUND,
    Evidence,
    Suspect,
    added_term,
    claim,
    describe_call,
    detach_where_handed_in,
    owner_class,
    read_into,
    recurrent_store,
    stores_of,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import Insert, Remedy, replace_node
from autograd_doctor.edits.strategies import (
    detach_at_boundary,
    detach_in_update,
    detach_statement,
    detach_stored,
)
from autograd_doctor.graph.objects import resolve
from autograd_doctor.source import patterns, places, reading

CATEGORY = "carried-state"
CULPRIT = "h"
CULPRIT_LINE = 11  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(4, 8)
head = nn.Linear(8, 1)
opt = torch.optim.SGD([*rnn.parameters(), *head.parameters()], lr=0.1)
h = torch.zeros(1, 2, 8)
for step in range(3):
    x = torch.randn(5, 2, 4)
    out, h = rnn(x, h)
    loss = head(out).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("    out, h = rnn(x, h)\n", "    h = h.detach()\n    out, h = rnn(x, h)\n")


def match(ev: Evidence) -> Claim | None:
    suspect = ev.primary
    if ev.root_stale or ev.same_step or suspect is None:
        return None
    if ev.storage == FED_BACK:
        return _recurrent_attribute(ev, suspect)
    # A sum carried over (`x = x + f(x_t)`) fed to the model is state; one only added to
    # the loss (`loss = fit + reg_total`) is a running loss total (accumulated_loss), and
    # so is a total kept per key (`totals[task] += loss`).
    carried = ev.storage == REBOUND or (ev.storage == ACCUMULATED and not ev.backwarded
                                        and suspect.kind != "container-element"
                                        and not added_term(ev))
    if carried and suspect.kind in ("local", "parameter", "container-element"):
        return _local(ev, suspect)
    return None


def _local(ev: Evidence, suspect: Suspect) -> Claim | None:
    placement = places.place(suspect.frame, suspect.expression)
    if placement is None or placement.loop is None:
        return None
    in_loop = placement.stores_in_loop
    carried = [s for s in ev.suspects
               if s.kind == suspect.kind and s.frame.same_code(suspect.frame)
               and (p := places.place(s.frame, s.expression)) is not None
               and p.loop is placement.loop and p.stores_in_loop]
    store = _store_before(in_loop, placement.line)
    remedy: Remedy | None
    alternatives: tuple[Remedy, ...] = ()
    if patterns.running_estimate(store, suspect.expression):
        # `b = 0.9 * b + 0.1 * x`: an estimate (a baseline, a normaliser) is data, not a
        # path for gradients even within the step, so the update itself is detached.
        remedy = _detach_update(placement.file, store, suspect.expression)
    else:
        remedy = detach_at_boundary(placement.file, placement.scope, placement.loop,
                                    [(s.expression, _own_structure(s)) for s in carried])
        update = detach_in_update(placement.file, store, suspect.expression, suspect.structure)
        alternatives = (update,) if update and len(carried) == 1 else ()
    names = " and ".join(f"`{s.expression}`" for s in carried)
    why = (
        f"{names} is computed in one iteration of the loop at "
        f"{places.user_path(placement.file)}:{placement.loop.lineno} and used again in the "
        f"next. {describe_call(ev, 'freeing').capitalize()} freed the graph behind it in the "
        f"previous iteration, and {describe_call(ev, 'failing')} reached that graph again "
        f"through {names}."
    )
    hint = (f"Detach it at the top of the iteration so each step backpropagates through its "
            f"own part only. {RETAIN_GRAPH_CARRIED}")
    said = claim(ev, CATEGORY, why, hint, suspect, (placement.file, store.lineno), remedy)
    return replace(said, alternatives=alternatives)


def _holds_history(ev: Evidence, written: str) -> bool:
    """Is `written` (a sibling target of the store, `self.coords[k]`) state with history now,
    or a suspect already? Read live through the primary suspect's own name for its sibling
    (`state.coords['A']` beside `state.pair['A']`)."""
    attribute = _attribute(written)
    if any(_attribute(s.expression) == attribute for s in ev.suspects):
        return True
    primary = ev.primary
    if primary is None:
        return False
    own = _attribute(primary.expression)
    live = primary.expression.replace(f".{own}", f".{attribute}", 1)
    value = resolve(live, ev.live_scopes) if live != primary.expression else None
    return isinstance(value, torch.Tensor) and value.grad_fn is not None


def _attribute(expression: str) -> str:
    """`pair` for `state.pair['A']` and for `self.pair[chain_id]`."""
    return expression.split("[", 1)[0].rsplit(".", 1)[-1]


def _own_structure(suspect: Suspect) -> str:
    """The structure of the value itself: an element's, not its container's."""
    return "T" if suspect.kind == "container-element" else suspect.structure


def _detach_update(file: str, store: ast.stmt, expression: str) -> Remedy:
    value = reading.value_span(store)
    assert value is not None
    return Remedy(
        strategy="detach-on-store",
        description=f"keep {expression} as a running estimate without gradient history",
        file=file,
        line=store.lineno,
        operations=(replace_node(file, value, detached(reading.segment(file, value))),),
    )


def _store_before(stores: list[ast.stmt], line: int) -> ast.stmt:
    before = [s for s in stores if s.lineno <= line]
    return before[-1] if before else stores[-1]


def _recurrent_attribute(ev: Evidence, suspect: Suspect) -> Claim | None:
    """State on an object (or a global) fed back into the model: `out, self.h =
    self.rnn(x, self.h)` in the loop (detach it before it is fed back), or `self.hidden = hn`
    in the model's forward with a trainer handing `model.hidden` back (detach it where it
    is stored)."""
    found = recurrent_store(ev, suspect)
    remedy: Remedy | None
    alternatives: tuple[Remedy, ...] = ()
    if found is not None:
        file, scope, store, written = found
        loops = reading.loops_around(scope, store.lineno)
        body = loops[-1].body if loops else getattr(scope, "body", [])
        target = reading.first_use(body, scope, written)
        handed = written
        if target is None:  # handed back under a local read from it (`state = s.get(k)`)
            handed = min(read_into(scope, {written}), default=written)
        target = target or store
        indent = reading.indent_of(file, target.lineno)
        statement = detach_statement(scope, handed, _own_structure(suspect))
        if handed == written and _assigned_none_anywhere(ev, suspect) \
                and not statement.startswith("if "):
            statement = f"if {written} is not None:\n    {statement}"
        remedy = Remedy(
            strategy="detach-at-boundary",
            description=f"detach {handed} before it enters the next step",
            file=file,
            line=target.lineno,
            operations=(Insert(file, target.lineno, statement, indent),),
        )
        update = detach_in_update(file, store, written, suspect.structure)
        alternatives = (update,) if update else ()
        reset = _reset_each_sequence(ev, suspect) if suspect.cell else None
        if reset is not None:  # the code's own reset comes first: it keeps what learns
            remedy, alternatives = reset, (remedy, *alternatives)
        elif loops and (site := ev.failing.site) is not None and site.scope is not scope:
            # Stored in a loop of the model's own (over time steps, over layers): detached
            # there it would cut the gradient between the steps of one sequence too. Cut it
            # where the training loop hands it in.
            boundary = detach_where_handed_in(ev, suspect)
            if boundary is not None:
                remedy, alternatives = boundary, (remedy, *alternatives)
    else:
        stored = [(f, st, e) for f, _, st, e in stores_of(ev, suspect)
                  if (v := reading.value_span(st)) is not None and not patterns.creates(v)]
        if not stored:
            return None
        file, store, written = stored[-1]
        # Every piece of state the statement stores (`self.pair[k], self.coords[k] = p, c`)
        # is detached there: one left with its graph brings the error back.
        names = [written] + [w for t in reading.targets(store)
                             if (w := reading.text(t)) != written and _holds_history(ev, w)]
        # Stored entry by entry (`self.h_by_city[city] = h`): the entry's own structure.
        remedy = detach_stored(file, store, names, _own_structure(suspect)
                               if written.endswith("]") else suspect.structure)
        reset = _reset_each_sequence(ev, suspect) if suspect.cell else None
        if reset is not None:
            remedy, alternatives = reset, (remedy,) if remedy else ()
        boundary = detach_where_handed_in(ev, suspect)
        if boundary is not None:
            # Detached where it is stored, the state would carry no gradient inside the
            # sequence either; cut it where the loop hands it to the next step instead.
            remedy, alternatives = boundary, tuple(r for r in (remedy, *alternatives) if r)
    why = (
        f"`{written}` carries the state from one step to the next: it is assigned at "
        f"{places.user_path(file)}:{store.lineno} and handed back to the model at the next "
        f"step. {describe_call(ev, 'freeing').capitalize()} freed the graph behind it, and "
        f"{describe_call(ev, 'failing')} reached that graph again through it."
    )
    hint = f"Detach it before it is fed back in. {RETAIN_GRAPH_CARRIED}"
    said = claim(ev, CATEGORY, why, hint, suspect, (file, store.lineno), remedy,
                 expression=written if written.startswith("self.")
                 or suspect.kind == "container-element" else None)
    return replace(said, alternatives=alternatives)


def _reset_each_sequence(ev: Evidence, suspect: Suspect) -> Remedy | None:
    """A closure's state with a reset of its own (`lif.reset = reset`, where `reset` sets
    `mem = None`): call it at the top of each iteration of the loop that backwards, for each
    closure holding the state (`lif1.reset()`, `lif2.reset()`)."""
    closure = suspect.frame
    tree = reading.parse(closure.file)
    scope = closure.scope
    maker = reading.enclosing_function(tree, scope) if tree is not None and scope else None
    site = ev.failing.site
    loop_scope = site.scope if site is not None else None
    if maker is None or site is None or loop_scope is None or not suspect.holders:
        return None
    # What the maker starts the state with (`W = params["w0"]`): a function that stores it
    # again (or a fresh value) resets it.
    initial = {reading.text(v) for st in reading.stores(maker, suspect.expression)
               if (v := reading.value_span(st)) is not None}
    resetting = {f.name for f in ast.walk(maker) if isinstance(f, ast.FunctionDef)
                 and f is not scope and any(
                     (v := reading.value_span(s)) is not None and (
                         patterns.creates(v) or reading.text(v) in initial)
                     for s in reading.stores(f, suspect.expression))}
    exposed = [reading.text(t).split(".", 1)[1] for n in ast.walk(maker)
               if isinstance(n, ast.Assign) and reading.text(n.value) in resetting
               for t in n.targets if isinstance(t, ast.Attribute)
               and reading.text(t.value) == closure.function]
    loops = reading.loops_around(loop_scope, site.line)
    if not loops:
        return None
    top = loops[-1].body[0]
    if exposed:
        calls = "\n".join(f"{holder}.{exposed[0]}()" for holder in suspect.holders)
    else:  # `return step, reset`, received as `gcn_step, reset_weights = make(...)`
        received = _returned_reset(maker, closure.function, resetting, loop_scope)
        if received is None:
            return None
        calls = f"{received}()"
    # Called already, further out (once per epoch): the state is meant to run on across
    # the iterations in between, so resetting it in each one would change what it computes.
    called = {reading.text(n.func) for n in ast.walk(loop_scope) if isinstance(n, ast.Call)}
    if {c.removesuffix("()") for c in calls.split("\n")} & called:
        return None
    return Remedy("reset-state", f"reset {suspect.expression} at the start of each sequence",
                  site.file, top.lineno,
                  (Insert(site.file, top.lineno, calls, reading.indent_of(site.file,
                                                                           top.lineno)),))


def _returned_reset(maker: ast.AST, step: str, resetting: set[str], where: ast.AST
                    ) -> str | None:
    """The name the caller gave a reset that the maker returns beside the step closure."""
    for ret in (n for n in ast.walk(maker) if isinstance(n, ast.Return)
                and isinstance(n.value, ast.Tuple)):
        names = [reading.text(e) for e in ret.value.elts]  # type: ignore[union-attr]
        reset = next((i for i, n in enumerate(names) if n in resetting), None)
        if reset is None or step not in names:
            continue
        for stmt in (n for n in ast.walk(where) if isinstance(n, ast.Assign)):
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Tuple) and len(target.elts) == len(names) and \
                    isinstance(value, ast.Call) and reading.text(value.func).rsplit(
                        ".", 1)[-1] == getattr(maker, "name", ""):
                return reading.text(target.elts[reset])
    return None


def _assigned_none_anywhere(ev: Evidence, suspect: Suspect) -> bool:
    """Is the attribute None before its first step: set so in a method, or a dataclass
    field that defaults to None?"""
    owner = owner_class(suspect.expression, suspect, ev.live_scopes)
    if owner is None:
        return False
    name = suspect.expression.rsplit(".", 1)[-1]
    fields = [s for s in owner[1].body if isinstance(s, (ast.AnnAssign, ast.Assign))
              and any(reading.text(t) == name for t in reading.targets(s))]
    if any(isinstance(s.value, ast.Constant) and s.value.value is None for s in fields):
        return True
    return any(reading.may_be_none(node, f"self.{name}") for node in ast.walk(owner[1])
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
