"""Optimizer step between: `optimizer.step()` updated, in place, weights that a graph still
needed, before that graph was backwarded.

A forward saves the weights it used. Backward through that graph after an optimizer step
would compute gradients for weights that no longer exist, so PyTorch refuses. This is the
GAN and actor-critic pattern: two losses share part of a graph, the first one is backwarded
(often with retain_graph=True, added to get past the "second time" error) and its optimizer
steps, then the second loss is backwarded through the same, now outdated, graph.

Call backward for every loss that uses these weights before stepping: move the step after
the second backward. (In a GAN, the usual form recomputes the discriminator's output on
`fake` after the discriminator step.)
"""

from __future__ import annotations

import ast
from dataclasses import replace

from autograd_doctor.capture.growth import reaches
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.inplace_modified import RETAIN_GRAPH
from autograd_doctor.diagnosis.inplace_modified.evidence import (
    STEP,
    Inplace,
    claim,
    describe_saved,
)
from autograd_doctor.edits.operations import Insert, Move, Operation, Remedy, replace_node
from autograd_doctor.graph.names import steps
from autograd_doctor.graph.objects import (
    construction,
    names_holding,
    optimizers_in,
    param_ids,
)
from autograd_doctor.graph.walk import leaves, sequence_nr, walk
from autograd_doctor.source import places, reading

CATEGORY = "optimizer-step-between"
CULPRIT = "critic[2].weight"
CULPRIT_LINE = 18  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
actor = nn.Linear(4, 2)
critic = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
for step in range(3):
    state, ret = torch.randn(8, 4), torch.randn(8, 1)
    log_prob = torch.log_softmax(actor(state), -1)[:, :1]
    advantage = ret - critic(state)
    critic_loss = advantage.pow(2).mean()
    actor_loss = -(log_prob * advantage).mean()
    critic_opt.zero_grad()
    actor_opt.zero_grad()
    critic_loss.backward(retain_graph=True)
    critic_opt.step()
    actor_loss.backward()
    actor_opt.step()
"""

FIXED = BROKEN.replace(
    "    critic_opt.step()\n    actor_loss.backward()\n",
    "    actor_loss.backward(inputs=list(actor.parameters()))\n    critic_opt.step()\n")


def match(ev: Inplace) -> Claim | None:
    step = ev.step
    if ev.writer_kind != STEP or step is None or step.site is None or ev.carried:
        return None  # with state carried through a kept graph: retain-graph-carried
    site = step.site
    failing = ev.failing.site
    why = (
        f"{describe_saved(ev)} was saved by the graph that "
        f"{places.user_path(failing.file) if failing else ''}:{failing.line if failing else ''} "
        f"backwards, then the optimizer step at {places.user_path(site.file)}:{site.line} "
        f"updated it in place before that backward ran. Backward needs the values the "
        f"forward used."
    )
    hint = ("Call backward for every loss that uses these weights before stepping, or "
            f"compute the forward again after the step. {RETAIN_GRAPH}")
    said = claim(ev, CATEGORY, why, hint, _as_at_step(ev) or ev.name or "a parameter",
                 "parameter",
                 (site.file, site.line), _step_after(ev))
    again = _compute_again(ev)
    if again is None:
        return said
    # Moving the step keeps one forward for both losses; computing the forward again after
    # the step is what works when the two losses live in different functions.
    return replace(said, remedy=said.remedy or again,
                   alternatives=(again,) if said.remedy is not None else ())


def _as_at_step(ev: Inplace) -> str | None:
    """The parameter under the name valid where the step is written: the trainer's
    `self.model.head.weight` is `trainer.model.head.weight` in a callback handed the trainer,
    when `trainer.optimizer` there is that same trainer's optimizer."""
    step, name = ev.step, ev.name
    stmt = step.site.statement if step is not None and step.site is not None else None
    receiver = reading.call_receiver(stmt, "step") if stmt is not None else None
    if step is None or not name or receiver is None:
        return None
    path, own = steps(reading.text(receiver)), steps(name)
    if len(path) < 2 or path[0] == own[0] or any(not p.startswith(".") for p in path[1:]):
        return None
    value = next((f.f_locals[own[0]] for f in ev.failure.frames if own[0] in f.f_locals), None)
    for part in path[1:]:
        value = getattr(value, part[1:], None)
    return path[0] + "".join(own[1:]) if value is not None and value is step.optimizer() \
        else None


def _compute_again(ev: Inplace) -> Remedy | None:
    """The output made before the step and handed on to the second loss (`d_fake =
    self.netD(fake)`, then `self.generator_step(d_fake)`): compute it again just before the
    statement that leads to the failing call, in the innermost frame that holds it."""
    step = ev.step
    if step is None or step.sequence < 0:
        return None
    in_graph = set(walk(ev.failing.roots))
    for index, frame in enumerate(ev.failing.frames):
        scope = frame.scope
        target = reading.statement_at(scope, frame.line) if scope is not None else None
        if scope is None or target is None:
            continue
        for i, binding in ev.failing.bindings:
            if i != index or binding.kind != "local" or binding.node not in in_graph \
                    or sequence_nr(binding.node) >= step.sequence or (
                        ev.node is not None and binding.node is not ev.node
                        and not reaches(binding.node, ev.node)):
                continue
            stores = [st for st in reading.stores(scope, binding.expression)
                      if st.lineno < target.lineno]
            store = stores[-1] if stores else None
            if store is None or not isinstance(getattr(store, "value", None), ast.Call) \
                    or not _reaches_into(scope, store, target):
                continue
            chain = _derived(scope, store, target)
            return Remedy(
                "recompute-after-step",
                f"compute {binding.expression} again after the step, for the second loss",
                frame.file, target.lineno,
                tuple(Insert(frame.file, target.lineno, reading.segment(frame.file, st),
                             reading.indent_of(frame.file, target.lineno)) for st in chain))
    return None


def _reaches_into(scope: ast.AST, store: ast.stmt, target: ast.stmt) -> bool:
    """Is `target` in `store`'s block after it, or inside a later `if`/`with`/`try` of that
    block (the delayed policy update of TD3, under `if step % delay == 0:`), but not inside
    a loop there (computed again on every pass, it would change what each pass sees)?"""
    holder = reading.sibling_holding(scope, store, target)
    if holder is None or holder.lineno <= store.lineno:
        return False
    return len(reading.loops_around(scope, target.lineno)) == len(
        reading.loops_around(scope, store.lineno))


def _derived(scope: ast.AST, store: ast.stmt, target: ast.stmt) -> list[ast.stmt]:
    """The store, and the plain assignments after it (before `target`, in its block) that
    compute from what it assigned (`actor_loss = -policy_value.mean()`): computed again
    together, or the second loss still reads the old value."""
    block = reading.block_of(scope, store) or [store]
    made = {reading.text(t) for t in reading.targets(store)}
    chain = [store]
    for stmt in block:
        if not store.lineno < stmt.lineno < target.lineno or not isinstance(stmt, ast.Assign):
            continue
        if made & reading.names_in(stmt.value):
            chain.append(stmt)
            made |= {reading.text(t) for t in stmt.targets}
    return chain


def _step_after(ev: Inplace) -> Remedy | None:
    step, failing = ev.step, ev.failing.site
    if step is None or step.site is None or failing is None or not step.site.same_code(failing):
        return None
    scope = failing.scope
    if scope is None:
        return None
    mover = reading.statement_at(scope, step.site.line)
    anchor = reading.statement_at(scope, failing.line)
    if mover is None or anchor is None or not reading.siblings(scope, mover, anchor) \
            or mover.lineno > anchor.lineno:
        return None
    after = (anchor.end_lineno or anchor.lineno) + 1
    ops: list[Operation] = [Move(failing.file, mover.lineno, mover.end_lineno or mover.lineno,
                                 after, reading.indent_of(failing.file, anchor.lineno))]
    only = _own_inputs(ev, anchor)
    if only is not None:
        ops.append(only)
    return Remedy(
        strategy="reorder-step",
        description="step the optimizer after the second backward" + (
            ", and let that backward fill only the other model's gradients" if only else ""),
        file=failing.file,
        line=anchor.lineno,
        operations=tuple(ops),
    )


def _own_inputs(ev: Inplace, anchor: ast.stmt) -> Operation | None:
    """With the step moved after it, the second backward would also add its gradients to
    the first model's (a GAN's generator loss into the discriminator). Restrict it to the
    parameters of the other optimizers it reaches: `backward(inputs=list(netG.parameters()))`.
    """
    step = ev.step
    moved = step.optimizer() if step is not None else None
    failing = ev.failing.site
    call = next((n for n in ast.walk(anchor) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"), None)
    if moved is None or failing is None or call is None or any(
            k.arg == "inputs" for k in call.keywords) or call.args:
        return None
    reached = {id(t) for t in leaves(walk(ev.failing.roots))}
    scopes = ev.scopes
    files = [f.f_code.co_filename for f in ev.failure.frames]
    others = [o for o in optimizers_in(scopes) if o is not moved
              and param_ids(o) & reached]
    if not others or param_ids(moved).isdisjoint(reached):
        return None
    parts = []
    frame = ev.failure.frames[0] if ev.failure.frames else None
    for other in others:
        holders = names_holding(other, scopes)
        built = construction(holders, files)
        if built is None:
            return None
        file, _, arg = built
        text = reading.segment(file, arg)
        if frame is not None and not all(
                n.id in frame.f_locals or n.id in frame.f_globals or n.id in frame.f_builtins
                for n in ast.walk(arg) if isinstance(n, ast.Name)):
            # Built from a local of another function (`ranker_params` in `__init__`): what
            # the optimizer holds, read through the name this function has for it.
            here = sorted(h for h in holders if h.split(".", 1)[0] in frame.f_locals)
            if not here:
                return None
            text = f"[p for g in {here[0]}.param_groups for p in g['params']]"
            parts.append(f"*{text}" if len(others) > 1 else text)
            continue
        parts.append(f"*{text}" if len(others) > 1 else f"list({text})")
    inputs = parts[0] if len(parts) == 1 else f"[{', '.join(parts)}]"
    receiver = reading.segment(failing.file, call.func)
    return replace_node(failing.file, call, f"{receiver}(inputs={inputs})")

