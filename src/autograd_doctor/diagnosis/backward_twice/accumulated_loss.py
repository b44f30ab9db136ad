"""Accumulated loss: a running loss total kept as a tensor and backwarded.

`total_loss += loss` keeps every iteration's graph attached to `total_loss`. Backwarding
the total in the loop reaches the graphs of earlier iterations, which their own backward
already freed.

`retain_graph=True` would make each step backpropagate through every earlier batch again
(gradients counted many times over, time and memory growing each step). Backward the
loss of the current batch, and keep the running total as a Python number with `.item()`
for logging.
"""

from __future__ import annotations

import ast
from typing import Any

import torch

from autograd_doctor.diagnosis.backward_twice.evidence import (
    ACCUMULATED,
    Evidence,
    Suspect,
    added_term,
    claim,
    describe_call,
    plain_number,
    stores_of,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.forms import atom
from autograd_doctor.edits.operations import Insert, Remedy, Replace, replace_node
from autograd_doctor.graph.objects import evaluate
from autograd_doctor.source import patterns, places, reading

CATEGORY = "accumulated-loss"
CULPRIT = "total_loss"
CULPRIT_LINE = 11  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total_loss = 0
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y)
    total_loss += loss
    opt.zero_grad()
    total_loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("total_loss += loss\n", "total_loss += loss.item()\n").replace(
    "total_loss.backward()", "loss.backward()")


def match(ev: Evidence) -> Claim | None:
    suspect = ev.primary
    if ev.root_stale or ev.same_step or suspect is None or ev.storage != ACCUMULATED:
        return None
    entry = suspect.kind == "container-element"
    # Backwarded itself, or added into the loss that is (`loss = fit + reg_total`); a total
    # kept per key (per task) is a loss total whatever the loss makes of it.
    summed = added_term(ev)
    if not ev.backwarded and not summed and not entry:
        return None
    found = _accumulation(ev, suspect)
    if found is None:
        return None
    file, scope, store, name = found
    # Added into each step's loss, the total is meant to be this update's: started afresh.
    per_update = not entry and (not ev.backwarded or _per_update(ev, scope, store))
    if entry:
        remedy = _entry_item(ev, file, store, name, summed)
    elif per_update:
        remedy = _reset(ev, name, store, file)
    elif patterns.accumulates(store, name):
        remedy = _remedy(ev, file, store, _term(store, name), name)
    else:
        remedy = _averaged(ev, file, store, name)
    why = (
        f"`{name}` adds up (or averages) the loss across iterations as a tensor "
        f"({places.user_path(file)}:{store.lineno}), so it still holds the graphs of earlier "
        f"{'updates' if per_update else 'batches'}. "
        f"{describe_call(ev, 'freeing').capitalize()} freed those graphs, and "
        f"{describe_call(ev, 'failing')} "
        f"{'on the total' if ev.backwarded else 'on a loss the total is added to'} reached "
        f"them again."
    )
    hint = (
        ("Start the total afresh after each update (it is never reset). " if per_update else
         "Backward the current batch's loss and accumulate the total with `.item()`. ")
        + "retain_graph=True would backpropagate through every earlier batch again at each "
          "step: gradients counted many times over, time and memory growing without bound."
    )
    return claim(ev, CATEGORY, why, hint, suspect, (file, store.lineno), remedy,
                 expression=name if name.startswith("self.") or entry else None)


def _accumulation(ev: Evidence, suspect: Suspect
                  ) -> tuple[str, reading.Scope, ast.stmt, str] | None:
    """The statement that adds to the total, in the loop around the culprit or wherever the
    object that holds it is updated."""
    if suspect.kind in ("attribute", "global", "container-element"):
        return next(((f, s, st, e) for f, s, st, e in stores_of(ev, suspect)
                     if patterns.accumulates(st, e)), None)
    placement = places.place(suspect.frame, suspect.expression)
    if placement is None:
        return None
    sums = [s for s in placement.stores_in_loop if patterns.accumulates(s, suspect.expression)
            or patterns.running_estimate(s, suspect.expression)]
    return (placement.file, placement.scope, sums[-1], suspect.expression) if sums else None


def _per_update(ev: Evidence, scope: ast.AST, store: ast.stmt) -> bool:
    """Is the total meant to be the loss of one update, summed over micro-batches or tasks,
    and backwarded once they are all in? So when the backward call is not made after every
    addition: it sits outside the loop that adds, or under a condition (every k steps)."""
    site = ev.failing.site
    backward = site.statement if site is not None else None
    if site is None or backward is None:
        return False
    own = site.scope
    if own is None or not any(s is store for s in reading.statements(own)):
        return True  # added up in one function, backwarded in another
    adds = reading.loops_around(own, store.lineno)
    calls = reading.loops_around(own, backward.lineno)
    if adds and (not calls or adds[-1] is not calls[-1]):
        return True
    block = reading.block_of(own, backward)
    return any(isinstance(n, ast.If) and block is n.body for n in ast.walk(own))


def _reset(ev: Evidence, name: str, store: ast.stmt, file: str) -> Remedy | None:
    """`total = 0.0` at the end of the block that backwards it (the initial value the code
    gave it), so that the next update starts afresh."""
    site = ev.failing.site
    backward = site.statement if site is not None else None
    own = site.scope if site is not None else None
    if site is None or backward is None or own is None:
        return None
    block = reading.block_of(own, backward) or []
    init = _initial_value(ev, name, file)
    if not block or init is None:
        return None
    last = block[-1]
    after = (last.end_lineno or last.lineno) + 1
    where = name if name.startswith("self.") or site.file == file else name
    return Remedy("clear-after-step", f"start {where} afresh after each update", site.file,
                  after, (Insert(site.file, after, f"{where} = {init}",
                                 reading.indent_of(site.file, backward.lineno)),))


def _initial_value(ev: Evidence, name: str, file: str) -> str | None:
    """The value the code starts the total from (`0.0`, `torch.zeros(())`)."""
    tree = reading.parse(file)
    attr = name.rsplit(".", 1)[-1]
    names = (name, f"self.{attr}")
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Assign):
            # `baseline, total, level = 0.0, 0.0, None`: the element paired with the name
            pairs = reading.assigned_pairs(node)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            pairs = [(node.target, node.value)]
        else:
            continue
        for t, value in pairs:
            if reading.text(t) in names and patterns.creates(value):
                return reading.segment(file, value)
    return None


def _term(store: ast.stmt, expression: str) -> ast.expr:
    if isinstance(store, ast.AugAssign):
        return store.value
    value = store.value  # type: ignore[attr-defined]
    term: ast.expr = value.right if reading.text(value.left) == expression else value.left
    return term


def _averaged(ev: Evidence, file: str, store: ast.stmt, expression: str) -> Remedy | None:
    """A running average of the loss backwarded: it averages the loss's value
    (`.item()` where the loss is read), and the step backwards the loss itself."""
    value = reading.value_span(store)
    if value is None:
        return None
    losses = [n for n in ast.walk(value) if isinstance(n, (ast.Name, ast.Attribute))
              and reading.text(n) != expression
              and isinstance(t := evaluate(n, ev.live_scopes), torch.Tensor) and t.requires_grad]
    texts = {reading.text(n) for n in losses}
    site = ev.failing.site
    stmt = site.statement if site is not None else None
    receiver = reading.call_receiver(stmt, "backward") if stmt is not None else None
    if len(texts) != 1 or receiver is None or site is None:
        return None
    loss = texts.pop()
    ops = [replace_node(file, n, f"{loss}.item()") for n in losses]
    ops += [replace_node(site.file, n, loss) for n in ast.walk(receiver)
            if isinstance(n, (ast.Name, ast.Attribute)) and reading.text(n) == expression]
    ops += _plain_reads(file, expression)
    return Remedy("accumulate-item", f"backward {loss} and average its value into "
                  f"{expression} with .item()", file, store.lineno, tuple(ops))


def _plain_reads(file: str, expression: str) -> list[Replace]:
    """`total.item()` reads become `total`: the total is a number once it keeps `.item()`s."""
    tree = reading.parse(file)
    calls = patterns.item_calls(tree, expression) if tree is not None else []
    return [replace_node(file, call, expression) for call in calls]


def _entry_item(ev: Evidence, file: str, store: ast.stmt, name: str,
                summed: bool) -> Remedy | None:
    """A total kept per key (`totals[task] += value`): each key adds its value with
    `.item()`. Where the loss is the sum of the totals (`sum(totals.values())`), the step's
    own terms take their place: the container the loop that adds reads them from
    (`for task, value in batch.items()`)."""
    term = _term(store, name)
    text = reading.segment(file, term)
    ops: list[Insert | Replace] = [replace_node(file, term, f"{atom(text)}.item()")]
    if summed:
        site = ev.failing.site
        scope = site.scope if site is not None else None
        if site is None or scope is None or site.file != file:
            return None
        totals = name.split("[", 1)[0]
        own = _terms_container(file, store, term)
        after = [n for n in ast.walk(scope) if isinstance(n, ast.expr)
                 and store.lineno < n.lineno <= site.line]
        if own is not None:  # `sum(totals.values())`: the step's own terms instead
            reads = [c.func.value for c in after if isinstance(c, ast.Call)
                     and isinstance(c.func, ast.Attribute) and c.func.attr == "values"
                     and reading.text(c.func.value) == totals]
            ops += [replace_node(file, n, own) for n in reads]
        else:  # `stats["loss"] / stats["seen"]`: this step's term in the entry's place
            entry = reading.text(reading.targets(store)[0])
            reads = [n for n in after if isinstance(n, ast.Subscript)
                     and reading.text(n) == entry]
            taken = {n.id for n in ast.walk(scope) if isinstance(n, ast.Name)}
            fresh = next((n for n in ("batch_loss", "step_loss", "loss_term")
                          if n not in taken), None)
            if fresh is None:
                return None
            if not isinstance(term, ast.Name):  # computed once, added and backwarded
                ops = [Insert(file, store.lineno, f"{fresh} = {text}",
                              reading.indent_of(file, store.lineno)),
                       replace_node(file, term, f"{fresh}.item()")]
                text = fresh
            ops += [replace_node(file, n, text) for n in reads]
        if not reads:
            return None
    return Remedy("accumulate-item", f"add each value to {name} with .item()"
                  + (", and backward this step's own terms" if summed else ""),
                  file, store.lineno, tuple(ops))


def _terms_container(file: str, store: ast.stmt, term: ast.expr) -> str | None:
    """`batch` in `for task, value in batch.items(): totals[task] += value`."""
    tree = reading.parse(file)
    if tree is None or not isinstance(term, ast.Name):
        return None
    scope = reading.enclosing_function(tree, store) or tree
    for loop in reading.loops_around(scope, store.lineno):
        it = loop.iter if isinstance(loop, ast.For) else None
        if isinstance(loop, ast.For) and isinstance(it, ast.Call) and isinstance(
                it.func, ast.Attribute) and it.func.attr in ("items", "values") and \
                not it.args and any(isinstance(n, ast.Name) and n.id == term.id
                                    for n in ast.walk(loop.target)):
            return reading.text(it.func.value)
    return None


def _unweighted(term: ast.expr, scopes: list[dict[str, Any]]) -> ast.expr:
    """`loss` in `loss * len(windows)` or `w * loss`: the tensor a weighted term weights."""
    while isinstance(term, ast.BinOp) and isinstance(term.op, (ast.Mult, ast.Div)):
        if plain_number(term.right, scopes):
            term = term.left
        elif isinstance(term.op, ast.Mult) and plain_number(term.left, scopes):
            term = term.right
        else:
            break
    return term


def _remedy(ev: Evidence, file: str, store: ast.stmt, term: ast.expr,
            expression: str) -> Remedy | None:
    # The term is written twice after the edit (its value added, itself backwarded): only
    # names and arithmetic, so that nothing runs twice (`loss / ACCUM`, not `crit(out, y)`).
    if any(isinstance(n, (ast.NamedExpr, ast.Await)) or isinstance(n, ast.Call) and not
           plain_number(n, ev.live_scopes) for n in ast.walk(term)):
        return None  # the message says what to do
    text = reading.segment(file, term)
    backwarded = text if isinstance(term, ast.Name) else atom(text)
    ops: list[Replace] = [replace_node(file, term, f"{atom(text)}.item()")]
    site = ev.failing.site
    stmt = site.statement if site else None
    receiver = reading.call_receiver(stmt, "backward") if stmt is not None else None
    at_total = [] if receiver is None else [
        n for n in ast.walk(receiver)
        if isinstance(n, (ast.Name, ast.Attribute)) and reading.text(n) == expression]
    if receiver is not None and site is not None and at_total:
        # `total.backward()`, or the total scaled (`(total / n_seen).backward()`): this
        # step's term takes the total's place, so the step backwards its own share.
        ops += [replace_node(site.file, n, backwarded) for n in at_total]
    elif receiver is not None and site is not None:
        # A scaled copy backwarded (`epoch_mean = self.total / self.n_seen`): the step
        # backwards its batch's loss, the term without the weights it was summed with.
        backwarded = reading.segment(file, _unweighted(term, ev.live_scopes))
        ops.append(replace_node(site.file, receiver, backwarded))
    ops += _plain_reads(file, expression)
    return Remedy(
        strategy="accumulate-item",
        description=f"backward {backwarded} and accumulate {expression} with .item()",
        file=file,
        line=store.lineno,
        operations=tuple(ops),
    )
