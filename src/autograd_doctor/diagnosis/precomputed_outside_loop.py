"""Precomputed outside the loop: a tensor with history is computed once and reused.

A tensor computed once before the loop (a target, an embedding table passed through a layer,
a loss) carries its graph into every iteration. The first iteration's backward frees that
graph; the second iteration's backward reaches it again and fails.

`retain_graph=True` keeps the graph alive but is still wrong: if the tensor depends on
weights that the optimizer updates, every step reuses the value from before training started
and, once the weights changed in place, backward fails with the in-place error. If it depends
on trainable parameters, compute it inside the loop; if it is a constant (a target, features
of a frozen network), compute it once with `.detach()` so no graph is kept at all.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.common import describe_call, finding
from autograd_doctor.diagnosis.remedy import (
    Diagnosis,
    Move,
    Remedy,
    detached,
    replace_node,
)
from autograd_doctor.diagnosis.stale import Evidence, Suspect, best, resolve, same_step
from autograd_doctor.graph import source

ERROR = "backward-twice"
CATEGORY = "precomputed-outside-loop"
CULPRIT = "prior"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Linear(4, 4)
model = nn.Linear(4, 1)
opt = torch.optim.SGD([*encoder.parameters(), *model.parameters()], lr=0.1)
prior = encoder(torch.ones(1, 4))
for step in range(3):
    x = torch.randn(8, 4)
    loss = model(x + prior).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("prior = encoder(torch.ones(1, 4))\nfor step in range(3):\n",
                       "for step in range(3):\n    prior = encoder(torch.ones(1, 4))\n")


def match(ev: Evidence) -> Diagnosis | None:
    found = _precomputed(ev)
    if found is None:
        return None
    suspect, placement, store = found
    trained = ev.upstream_trained
    remedy = (_recompute(ev, placement, store, suspect) if trained
              else _detach(placement.file, store, suspect))
    why = ("it depends on parameters the optimizer trains, so compute it inside the loop"
           if trained else
           "nothing trainable feeds it, so compute it once with `.detach()` and keep no graph")
    loop_line = placement.loop.lineno if placement.loop else placement.line
    message = (
        f"`{suspect.expression}` is computed once, before the loop at "
        f"{places.user_path(placement.file)}:{loop_line}, and every iteration "
        f"uses it. {describe_call(ev, 'freeing').capitalize()} freed the graph behind it in "
        f"the first iteration, and {describe_call(ev, 'failing')} reached that graph again. "
        f"Here {why}. retain_graph=True would keep reusing a value computed before training "
        f"started and fail with the in-place error once the weights change."
    )
    return finding(ev, CATEGORY, message, suspect, (placement.file, store.lineno), remedy)


def _precomputed(ev: Evidence) -> tuple[Suspect, places.Placement, ast.stmt] | None:
    if same_step(ev):
        return None
    suspect = root_suspect(ev) if ev.root_stale else (ev.suspects[0] if ev.suspects else None)
    if suspect is None or suspect.kind not in ("local", "parameter"):
        return None
    placement = places.place(suspect.frame, suspect.expression)
    if placement is None or placement.loop is None or placement.stores_in_loop:
        return None
    before = placement.stores_before_loop
    if not before:
        return None
    if ev.root_stale and not _failing_in_loop(ev, placement):
        return None
    return suspect, placement, before[-1]


def root_precomputed(ev: Evidence) -> bool:
    """The failing loss itself was computed before the loop (not a repeated backward)."""
    return ev.root_stale and _precomputed(ev) is not None


def root_suspect(ev: Evidence) -> Suspect | None:
    """The failing loss itself was computed before the loop."""
    for root in ev.failing.roots:
        seen = ev.sightings.get(root)
        if seen:
            s = best(seen)
            return Suspect(s.binding.expression, s.binding.kind, s.frame, s.structure, [root],
                           [s])
    return None


def _failing_in_loop(ev: Evidence, placement: places.Placement) -> bool:
    site = ev.failing.site
    return bool(site and placement.loop and site.file == placement.file
                and source.inside_line(site.line, placement.loop))


def _recompute(ev: Evidence, placement: places.Placement, store: ast.stmt,
               suspect: Suspect) -> Remedy | None:
    loop = placement.loop
    if loop is None:
        return None
    chain = _chain(ev, placement, store)
    target = places.first_use(loop.body, placement.scope, suspect.expression) or loop.body[0]
    indent = source.indent_of(placement.file, target.lineno)
    moves = tuple(Move(placement.file, s.lineno, s.end_lineno or s.lineno, target.lineno, indent)
                  for s in chain)
    return Remedy(
        strategy="recompute-in-loop",
        description=f"compute {suspect.expression} inside the loop, once per iteration",
        file=placement.file,
        line=target.lineno,
        operations=moves,
    )


def _chain(ev: Evidence, placement: places.Placement, store: ast.stmt) -> list[ast.stmt]:
    """The statements before the loop that built part of the freed graph, in order."""
    loop = placement.loop
    body = getattr(placement.scope, "body", [])
    chain = []
    for stmt in body:
        if loop is not None and stmt.lineno >= loop.lineno:
            break
        if stmt is store:
            chain.append(stmt)
            continue
        for target in source.targets(stmt):
            value = resolve(source.text(target), ev.live_scopes)
            node = getattr(value, "grad_fn", None)
            if node is not None and node in ev.stale:
                chain.append(stmt)
                break
    return chain


def _detach(file: str, store: ast.stmt, suspect: Suspect) -> Remedy | None:
    value = places.value_span(store)
    if value is None:
        return None
    return Remedy(
        strategy="detach-on-store",
        description=f"compute {suspect.expression} once, detached from the graph",
        file=file,
        line=store.lineno,
        operations=(replace_node(file, value, detached(source.segment(file, value),
                                                             suspect.structure)),),
    )
