"""Evidence for "backward through the graph a second time": which part of the failing graph
an earlier backward freed, where the fresh graph enters it, what the user calls it there, and
the facts that decide the cause (was the loss's own graph freed, did both calls run in one
step, how is the culprit's value kept).

One graph walk per recorded backward, done only after the error. Live torch objects end here:
the cause modules read these facts and return plain Claims.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import torch

from autograd_doctor.capture.frames import frame_info, is_project_file, snapshot, suspended_frames
from autograd_doctor.capture.growth import reaches
from autograd_doctor.capture.hooks import Failure
from autograd_doctor.capture.ledger import BackwardRecord, StepRecord
from autograd_doctor.capture.tracer import MAX_SITE_FRAMES, made_at, site_of
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.operations import Insert, Move, Remedy
from autograd_doctor.edits.strategies import detach_statement
from autograd_doctor.graph.names import Binding, forget_plans, scan
from autograd_doctor.graph.objects import evaluate, optimizers_in, param_ids, resolve
from autograd_doctor.graph.walk import (
    FREED,
    Node,
    consumers,
    inputs_of,
    is_accumulator,
    leaf_of,
    leaves,
    node_name,
    saved_state,
    sequence_nr,
    tensors_in,
    walk,
)
from autograd_doctor.source import patterns, places, reading
from autograd_doctor.source.places import FrameInfo

KIND_RANK = {"local": 0, "parameter": 1, "attribute": 2, "global": 3, "container-element": 4}


@dataclass
class Sighting:
    """A name that held one of the entry nodes, and where it was seen."""

    binding: Binding
    frame: FrameInfo
    live: bool
    record: BackwardRecord | None
    structure: str

    @property
    def order(self) -> int:
        return self.record.order if self.record else 1 << 60


@dataclass
class Suspect:
    expression: str
    kind: str
    frame: FrameInfo
    structure: str
    entries: list[Node]
    sightings: list[Sighting]

    @property
    def cell(self) -> bool:
        """A closure's variable (`nonlocal mem`): kept between calls, like an attribute."""
        return any(s.binding.owner is not None for s in self.sightings)

    @property
    def holders(self) -> list[str]:
        """For a closure's variable, the names that hold the closures (`lif1`, `lif2`)."""
        return list(dict.fromkeys(s.binding.holder for s in self.sightings if s.binding.holder))

    @property
    def scope(self) -> reading.Scope | None:
        return self.frame.scope


# How the culprit's value is kept (Evidence.storage): the fact that decides most causes.
ACCUMULATED = "accumulated"  # a local summed in the loop: `total += loss`
REBOUND = "rebound-in-loop"  # a local assigned inside the loop from what it held before
BEFORE_LOOP = "before-loop"  # a local assigned only before the loop
FED_BACK = "fed-back"  # an attribute or global assigned from a call that reads it
CONTAINER = "container"  # an element of a container that outlives the iterations
KEPT = "kept"  # an attribute or global (a bank, a cache, a parameter written in place)
UNPLACED = "unplaced"


@dataclass
class Evidence:
    failure: Failure
    failing: BackwardRecord
    freeing: BackwardRecord | None
    stale: set[Node]
    entries: list[Node]
    root_stale: bool  # the loss's own graph was freed (not only a part it reaches)
    suspects: list[Suspect]
    steps_between: list[StepRecord]
    upstream: list[torch.Tensor]  # trainable leaves behind the stale entries
    trained: set[int]  # ids of parameters held by any optimizer seen
    sightings: dict[Node, list[Sighting]] = field(default_factory=dict)
    live_scopes: list[dict[str, Any]] = field(default_factory=list)
    records: tuple[BackwardRecord, ...] = ()  # the failing thread's recorded calls
    # The deciding facts, computed once (see _decide).
    same_step: bool = False  # the freeing call ran earlier in the same step
    primary: Suspect | None = None  # the culprit: the loss itself when its graph was freed
    storage: str = UNPLACED  # how the primary suspect's value is kept (the constants above)
    backwarded: bool = False  # the failing call is made on the primary suspect itself
    failing_in_loop: bool = False  # the failing call sits in the loop around the suspect
    split: bool = False  # one of several pieces, one per culprit (see gather)
    # The loop around the failing call runs once per optimizer (`for opt in optimizers:`
    # with backward inside): one loss backwarded once for each.
    per_optimizer: ast.For | None = None

    @property
    def upstream_trained(self) -> bool:
        return any(id(p) in self.trained for p in self.upstream)

    def stepped_params(self) -> set[int]:
        out: set[int] = set()
        for step in self.steps_between:
            opt = step.optimizer()
            if opt is not None:
                out |= param_ids(opt)
        return out


def gather(failure: Failure) -> Evidence | list[Evidence] | None:
    """The evidence; one per culprit when the failing call entered the freed graph through
    several names that are not one shared forward (each may have a cause of its own)."""
    ev = _gather(failure)
    if ev is None or ev.root_stale or ev.same_step or len(ev.suspects) < 2:
        return ev
    out = []
    for suspect in ev.suspects:
        one = replace(ev, primary=None, storage=UNPLACED, backwarded=False,
                      failing_in_loop=False, split=True)
        _facts(one, suspect)
        out.append(one)
    return out


def _gather(failure: Failure) -> Evidence | None:
    failing = failure.record
    if failing is None or not failing.roots:
        return None
    records = failure.own_records()
    failing_nodes = walk(failing.roots)
    in_failing = set(failing_nodes)
    previous = [r for r in records if r.order < failing.order and r.roots
                and not r.failed and not r.retained]
    freed_by: dict[Node, BackwardRecord] = {}
    for record in sorted(previous, key=lambda r: r.order):  # oldest first: it freed them
        for node in walk(record.roots):
            if node in in_failing and node not in freed_by and not is_accumulator(node):
                freed_by[node] = record
    stale = set(freed_by)
    if not stale:
        stale = _probe_stale(failing_nodes, previous)
    cons = consumers(failing_nodes)
    roots = set(failing.roots)
    entries = _boundary(failing_nodes, stale, cons, roots)
    entries = _entries_that_fail(entries, stale) or entries
    freeing = _freeing_record(entries, freed_by)
    if freeing is not None and freeing.thread == failing.thread:
        # Name the tensors the new step took from the old one, not only the freed nodes:
        # an RNN's returned `h` (StackBackward0) may never have been backwarded itself, only
        # the nodes below it were. Sequence numbers order nodes within one thread.
        mark = freeing.extra.get("sequence", -1)
        old = {n for n in failing_nodes if 0 <= sequence_nr(n) < mark}
        # ... unless the failing loss was computed before that call too, only scaled after
        # it (`(w * loss_vlb).backward()` on a second loss of the same forward): nothing
        # that learns was run since, so nothing was carried over.
        rerun = _learns_above(roots, old)
        if not roots & old and rerun:  # else the whole failing graph predates the call
            carried = _entries_that_fail(_boundary(failing_nodes, old, cons, roots), stale)
            entries = carried or entries
    scopes = failure.scopes()
    wholes = {e: _whole(e, stale) for e in entries}
    sightings = _sightings(failure, records, list(dict.fromkeys([*entries,
                                                                  *wholes.values()])))
    # The split value by its name, when it has one (`out`, not the unnamed output of
    # `prior_net(...)` that `base_loc, base_scale = ...chunk(2)` took apart).
    def seen_live(node: Node) -> bool:  # by a name that holds it, not one it passed through
        return any(s.live and not _transit(s) for s in sightings.get(node, ()))

    held = _held_above(failure, [e for e, w in wholes.items()
                                 if not seen_live(e) and not seen_live(w)])
    for found in held.values():
        for s in found:
            sightings.setdefault(s.binding.node, []).append(s)
    entries = list(dict.fromkeys(
        n for e, w in wholes.items() for n in (
            list(dict.fromkeys(s.binding.node for s in held[e])) if e in held
            else [w] if w in sightings else [e])))
    suspects = _suspects(entries, sightings)
    if failure.trace is not None:
        suspects = sorted(suspects + _made_suspects(entries, suspects), key=_source_order)
        suspects = [_stored_instead(s) or s for s in suspects]
    if freeing is not None:
        suspects = _holders(failure, suspects, stale, freeing.extra.get("sequence", -1))
    upstream = [t for t in leaves(walk(entries)) if t.requires_grad] if entries else []
    steps = [s for s in failure.own_steps()
             if freeing is not None and freeing.order < s.order < failing.order]
    ev = Evidence(
        failure=failure,
        failing=failing,
        freeing=freeing,
        stale=stale,
        entries=entries,
        root_stale=any(r in stale for r in failing.roots) or _rebackwarded(
            failing.roots, entries, stale, freeing),
        suspects=suspects,
        steps_between=steps,
        upstream=upstream,
        trained=_trained_ids(failure, scopes),
        sightings=sightings,
        live_scopes=scopes,
        records=records,
    )
    _decide(ev)
    return ev


# Ops that cut one tensor into several: each piece is part of the one value they share.
_PIECES = ("SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0")


def _whole(entry: Node, stale: set[Node]) -> Node:
    """For a piece of a split (`eps, v = out.split(d, 1)`, one piece per loss), the value
    that was split: what both losses go through is `out`."""
    if type(entry).__name__ not in _PIECES or not entry.next_functions:
        return entry
    whole = entry.next_functions[0][0]
    return whole if whole is not None and whole in stale else entry


def _rebackwarded(roots: Sequence[Node], entries: list[Node], stale: set[Node],
                  freeing: BackwardRecord | None) -> bool:
    """The failing call starts from the very loss the freeing call backwarded, only
    rescaled or reshaped on the way (`(loss * damping).backward()`): nothing new that
    learns lies between them, so it is that loss backwarded again, not a second loss
    sharing its forward."""
    if freeing is None or not entries:
        return False
    if all(e in freeing.roots for e in entries):
        return not _learns_above(roots, stale)
    # The same loss scaled anew for each call (`(loss / k).backward()` in an accumulation
    # loop): both calls start from a scaling of the very tensors the failing one reached.
    return all(_scaling_of(r, set(entries)) for r in [*roots, *freeing.roots])


_SCALINGS = ("MulBackward0", "DivBackward0", "NegBackward0", "ViewBackward0",
             "ReshapeAliasBackward0", "SqueezeBackward0", "UnsqueezeBackward0")


def _scaling_of(node: Node, targets: set[Node]) -> bool:
    """Does `node` only scale or reshape one of `targets` (by numbers, not weights)?"""
    for _ in range(4):
        if node in targets:
            return True
        if type(node).__name__ not in _SCALINGS:
            return False
        inputs = [n for n, _ in node.next_functions if n is not None]
        if len(inputs) != 1:
            return False  # multiplied by another tensor with history: not a number
        node = inputs[0]
    return node in targets


def _learns_above(roots: Iterable[Node], below: set[Node]) -> bool:
    """Does a weight that learns feed the graph between `roots` and the nodes `below`?"""
    return any(t.requires_grad for t in leaves(walk(roots, stop=below)))


def _decide(ev: Evidence) -> None:
    """The facts the causes choose by, computed once for the primary suspect."""
    ev.same_step = _same_step(ev)
    first = ev.suspects[0] if ev.suspects else None
    suspect = (root_suspect(ev) or first) if ev.root_stale else first
    # The loss backwarded is a running total or average of itself (`smoothed = beta *
    # smoothed + (1 - beta) * loss`): the earlier graphs are reached through its own
    # previous value, whatever name the first of them was made under.
    suspect = (None if ev.root_stale else _running_total(ev)) or suspect
    if suspect is not None:
        _facts(ev, suspect)


def _summed_entry(ev: Evidence, suspect: Suspect) -> bool:
    """An entry of a container that holds a running sum of one-number tensors
    (`totals[task] += loss`): a loss total kept per key, however the loss then uses it (a
    sum backwarded, weights that balance the tasks)."""
    value = resolve(suspect.expression, ev.live_scopes)
    return isinstance(value, torch.Tensor) and value.numel() == 1 and any(
        patterns.accumulates(stmt, name) for _, _, stmt, name in stores_of(ev, suspect))


def _running_total(ev: Evidence) -> Suspect | None:
    site = ev.failing.site
    stmt = site.statement if site is not None else None
    target = patterns.backwarded(stmt) if stmt is not None else None
    if site is None or not isinstance(target, ast.Name):
        return None
    # The loss is named where it is backwarded (no earlier record saw it: it is new).
    root = Suspect(target.id, "local", site, "T", list(ev.failing.roots), [])
    placement = places.place(root.frame, root.expression)
    if placement is None or placement.loop is None:
        return None
    name = root.expression
    running = [s for s in placement.stores_in_loop
               if patterns.accumulates(s, name) or patterns.running_estimate(s, name)]
    # Made afresh earlier in every iteration (`loss = crit(...)`, then `loss = loss + reg`),
    # it carries nothing from the last one.
    fresh = [s for s in placement.loop.body if s in placement.stores_in_loop
             and not isinstance(s, ast.AugAssign)
             and name not in reading.names_in(reading.value_span(s) or s)]
    return root if running and not any(f.lineno < running[0].lineno for f in fresh) else None


def _facts(ev: Evidence, suspect: Suspect) -> None:
    """How this suspect's value is kept, and whether the failing call is made on it."""
    _storage(ev, suspect)
    primary = ev.primary
    if primary is not None and primary.kind == "container-element" and \
            ev.storage != BEFORE_LOOP and _summed_entry(ev, primary):
        ev.storage = ACCUMULATED


def _storage(ev: Evidence, suspect: Suspect) -> None:
    ev.primary = suspect
    ev.backwarded = backward_reads(ev, suspect.expression)
    if suspect.kind in ("attribute", "global") or suspect.cell:
        _kept(ev, suspect)
        return
    whole = _built_before_loop(suspect)
    if whole is not None:  # `lrs = {n: softplus(r) ...}` before the loop: the container is
        suspect = ev.primary = whole  # the value computed once, not one of its elements
    placement = places.place(suspect.frame, suspect.expression)
    if (placement is None or placement.loop is None) and _declared_outer(suspect):
        _kept(ev, suspect)  # `nonlocal h` in a step function: kept between its calls
        return
    if placement is None or placement.loop is None:
        if suspect.kind == "container-element" and "." in suspect.sightings[0].binding.root:
            _kept(ev, suspect)  # `self.states[k]`: kept between the calls of a step method
            return
        ev.storage = CONTAINER if suspect.kind == "container-element" and \
            _persistent_container(suspect) else UNPLACED
        return
    site = ev.failing.site
    ev.failing_in_loop = bool(site and site.file == placement.file
                              and reading.inside_line(site.line, placement.loop))
    ev.per_optimizer = _per_optimizer(ev, placement) if ev.failing_in_loop else None
    in_loop = placement.stores_in_loop
    if suspect.kind == "container-element" and not in_loop:
        ev.storage = CONTAINER if _persistent_container(suspect) else UNPLACED
        if ev.storage == CONTAINER and into_weights(ev, suspect.entries) and recurrent(
                ev, suspect):
            ev.storage = FED_BACK  # `state[u] = gru(x, state[u])`: one state per key
    elif in_loop:
        accumulated = any(patterns.accumulates(s, suspect.expression) or ev.backwarded and
                          patterns.running_estimate(s, suspect.expression) for s in in_loop)
        ev.storage = ACCUMULATED if accumulated else REBOUND
    elif placement.stores_before_loop and suspect.kind in ("local", "parameter"):
        # A table the loop writes rows into (`bank[idx] = ...`) is a store kept between the
        # iterations, not a value computed once.
        rows = reading.container_stores(placement.loop, suspect.expression)
        ev.storage = CONTAINER if rows else BEFORE_LOOP


def _per_optimizer(ev: Evidence, placement: places.Placement) -> ast.For | None:
    """The loop around the failing call, when what it iterates over is, right now, an
    optimizer (read from the live frame)."""
    loop = placement.loop
    if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
        return None
    frame = next((f for f in ev.failure.frames
                  if f.f_code.co_filename == placement.file
                  and reading.inside_line(f.f_lineno or 0, loop)), None)
    value = frame.f_locals.get(loop.target.id) if frame is not None else None
    return loop if isinstance(value, torch.optim.Optimizer) else None


def _kept(ev: Evidence, suspect: Suspect) -> None:
    """Storage of a value kept between calls (an attribute, a global, a closure's cell)."""
    stored = stores_of(ev, suspect)
    # Backwarded under the name its own class writes (`self.pending.backward()` in the
    # callback, `cb.pending` from the loop) is still backwarded.
    site = ev.failing.site
    ev.backwarded = ev.backwarded or any(
        site is not None and site.file == f and backward_reads(ev, e) for f, _, _, e in stored)
    if ev.backwarded and any(patterns.accumulates(s, e) for _, _, s, e in stored):
        ev.storage = ACCUMULATED  # `self.total = self.total + loss`, then backwarded
    elif _made_before_loop(ev, suspect):
        ev.storage = BEFORE_LOOP  # `self.class_embeds = encode(...)` in __init__
    else:
        # State the model computes on and computes anew from itself (a previous output fed
        # back, a streaming cache) is carried, however the code hands it back.
        # A bank of past values handed to the model (retrieval keys refreshed from new
        # encodings) is computed from new data, not from itself: stored, not carried.
        ev.storage = FED_BACK if (fed_back(ev, suspect) or into_weights(
            ev, suspect.entries)) and recurrent(ev, suspect) or \
            updated_within_step(ev, suspect) else KEPT


def _made_before_loop(ev: Evidence, suspect: Suspect) -> bool:
    """Was every stale value the suspect holds made (a replay knows where) before the loop
    that runs the failing call started? Found in the innermost function both the making
    and the failing call pass through that has a loop around the failing call's line: the
    innermost such loop (a value made per epoch is made before the loop over batches), or
    a comprehension that runs the steps (`[step(b) for b in batches]`)."""
    made = [site_of(e) for e in suspect.entries]
    if not made or any(not m for m in made):
        return False
    frames = ev.failing.frames
    for entry_site in made:
        assert entry_site
        common = [(i, f, c) for i, f in enumerate(frames) for c in entry_site
                  if f.same_code(c)]
        placed = next(((f, c, start) for i, f, c in common if f.scope is not None and (
            start := _loop_start(f, frames[i - 1] if i else None)) is not None), None)
        if placed is None:
            # Made wholly outside the function whose loop runs the failing call (in a
            # constructor called before `fit()`): made before that loop started, as long as
            # the whole stack of the making is known.
            looping = next((f for i, f in enumerate(frames) if f.scope is not None and
                            _loop_start(f, frames[i - 1] if i else None) is not None), None)
            whole = len(entry_site) < MAX_SITE_FRAMES or entry_site[-1].function == "<module>"
            if looping is None or not whole or any(looping.same_code(c) for c in entry_site):
                return False
            continue
        f, c, start = placed
        if c.line >= start:
            return False
    return True


def _loop_start(frame: FrameInfo, inner: FrameInfo | None) -> int | None:
    """The first line of the innermost loop that runs `frame`'s current line again: a
    comprehension the next frame in runs in, or a loop statement around it."""
    if inner is not None and inner.function in _COMPREHENSIONS and frame.scope is not None:
        stmt = reading.statement_at(frame.scope, frame.line)
        return stmt.lineno if stmt is not None else frame.line
    loops = reading.loops_around(frame.scope, frame.line) if frame.scope is not None else []
    return loops[-1].lineno if loops else None


_COMPREHENSIONS = ("<listcomp>", "<genexpr>", "<dictcomp>", "<setcomp>")


def _built_before_loop(suspect: Suspect) -> Suspect | None:
    """The local container an element was read from, when it is built before the loop and
    the loop never changes it (no store, no element store, no method call on it)."""
    if suspect.kind != "container-element":
        return None
    root = suspect.sightings[0].binding.root
    placement = places.place(suspect.frame, root) if "." not in root else None
    if placement is None or placement.loop is None or placement.stores_in_loop \
            or not placement.stores_before_loop:
        return None
    loop = placement.loop
    if reading.container_stores(loop, root) or any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and reading.text(n.func.value) == root for n in ast.walk(loop)):
        return None
    shape = "{T}" if "['" in suspect.expression or '["' in suspect.expression else "[T]"
    return Suspect(root, "local", suspect.frame, shape, suspect.entries, suspect.sightings)


def _declared_outer(suspect: Suspect) -> bool:
    """A name the running function declares `nonlocal` or `global`: seen among its locals,
    but kept between calls like an attribute."""
    scope = suspect.scope
    root = suspect.expression.split(".")[0].split("[")[0]
    return isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
        reading.declares_outer(scope, root)


def _persistent_container(suspect: Suspect) -> bool:
    """A local list/dict that outlives iterations: created before the loop and filled in it,
    perhaps trimmed there (`memory = memory[-k:]` keeps it, it does not start it afresh)."""
    root = suspect.sightings[0].binding.root
    if "." in root:
        return True
    placement = places.place(suspect.frame, root)
    return placement is None or all(
        root in reading.names_in(v) for s in placement.stores_in_loop
        if (v := reading.value_span(s)) is not None)


def _boundary(nodes: list[Node], region: set[Node], cons: dict[Node, list[Node]],
              roots: set[Node]) -> list[Node]:
    """Nodes of `region` that the rest of the failing graph (or the call itself) consumes."""
    return [n for n in nodes if n in region
            and (n in roots or any(c not in region for c in cons.get(n, ())))]


def _probe_stale(nodes: list[Node], previous: list[BackwardRecord]) -> set[Node]:
    """When the freeing call is not in the ledger: nodes whose saved tensors are gone and
    that are older than the last recorded backward (so the failing call did not free them)."""
    if not previous:
        return set()
    mark = max(r.extra.get("sequence", -1) for r in previous)
    return {n for n in nodes if 0 <= sequence_nr(n) < mark and saved_state(n) == FREED}


def _entries_that_fail(entries: list[Node], stale: set[Node]) -> list[Node]:
    """Keep entries behind which some node really lost its saved tensors."""
    keep = []
    for entry in entries:
        region = walk([entry], stop=None)
        if any(n in stale and saved_state(n) == FREED for n in region):
            keep.append(entry)
    return keep


def _freeing_record(entries: list[Node],
                    freed_by: dict[Node, BackwardRecord]) -> BackwardRecord | None:
    found = [freed_by[e] for e in entries if e in freed_by]
    if not found:
        # An entry may itself save nothing (AddBackward0); what freed the region behind it
        # is the record of any stale node below it.
        for entry in entries:
            for node in walk([entry]):
                if node in freed_by:
                    return freed_by[node]
        return None
    return min(found, key=lambda r: r.order)


def _sightings(failure: Failure, records: tuple[BackwardRecord, ...],
               entries: list[Node]) -> dict[Node, list[Sighting]]:
    wanted = set(entries)
    forget_plans()  # read module trees as they are now
    out: dict[Node, list[Sighting]] = {}
    live_frames = [frame_info(f) for f in failure.frames]
    bindings, structures = snapshot(failure.frames)
    for i, b in bindings:
        if b.node in wanted:
            out.setdefault(b.node, []).append(
                Sighting(b, b.owner or live_frames[i], True, None,
                         structures.get((i, b.root), "T")))
    # State kept in the globals of the user's other modules (a cache in a helper module)
    # is on no frame; look there too.
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file or not is_project_file(file) or any(f.f_globals is vars(module)
                                                        for f in failure.frames):
            continue
        where = FrameInfo(file, 0, "<module>", 1)
        for b in scan(vars(module), "global"):
            if b.node in wanted:
                out.setdefault(b.node, []).append(Sighting(b, where, True, None, "T"))
    for record in sorted(records, key=lambda r: -r.order):
        for i, b in record.bindings:
            if b.node in wanted:
                out.setdefault(b.node, []).append(
                    Sighting(b, b.owner or record.frames[i], False, record,
                             record.structures.get((i, b.root), "T")))
    return out


def _held_above(failure: Failure, missing: list[Node]) -> dict[Node, list[Sighting]]:
    """Freed values no name holds as they are, but a piece of them is, deeper than the hot
    path looks: a callback's deque of (latent, label) pairs filled by `for z, y in
    zip(latents, labels)` after the backward (an unbind that saves nothing, just above the
    freed node). Read after the failure only."""
    if not missing:
        return {}
    roots = set(failure.record.roots) if failure.record is not None else set()
    live_frames = [frame_info(f) for f in failure.frames]
    bindings, structures = snapshot(failure.frames, deep=True)
    # A generator paused at its `yield` keeps its locals between batches (a window feeder
    # carrying the hidden state): its frame is on no stack, but its state is as live.
    paused = [f for f in suspended_frames() if f not in failure.frames]
    if paused:
        extra, extra_structures = snapshot(paused)
        base = len(failure.frames)
        bindings += tuple((base + i, b) for i, b in extra)
        structures = {**structures, **{(base + i, r): v for (i, r), v in
                                       extra_structures.items()}}
        live_frames += [frame_info(f) for f in paused]
    # Only what the hot path could not see: a name it sees (`state.mem`, updated since
    # from the freed value) is judged by the sightings the causes already read.
    shallow = {(i, b.expression) for i, b in snapshot(failure.frames)[0]}
    near: dict[Node, list[tuple[int, Sighting]]] = {}
    for i, b in bindings:
        generator = i >= len(failure.frames)
        if b.kind == "local" and not generator or b.node in roots or (
                i, b.expression) in shallow:
            continue
        for entry in missing:
            hops = 0 if b.node is entry else next(
                (h for h in (1, 2) if reaches(b.node, entry, hops=h)), None)
            sighting = Sighting(b, b.owner or live_frames[i], True, None,
                                structures.get((i, b.root), "T"))
            # A generator's local bound afresh before it is read (`logits` it yields) is
            # this step's; the state is what it reads back (`hidden`).
            if hops is not None and not (generator and _transit(sighting)):
                near.setdefault(entry, []).append((hops, sighting))
    # The nearest holders only: the state itself, not what this step computed from it.
    return {e: [s for h, s in found if h == min(h for h, _ in found)]
            for e, found in near.items()}


def _kind(s: Sighting) -> str:
    b = s.binding
    if b.kind == "local" and b.expression == b.root and _is_argument(s):
        return "parameter"
    return b.kind


def _is_argument(s: Sighting) -> bool:
    """The name is a function argument the function never rebinds."""
    scope = reading.scope_of(s.frame.file, s.frame.function, s.frame.first_line)
    root = s.binding.root
    return scope is not None and root in reading.parameters(scope) and not reading.stores(
        scope, root)


def best(sightings: list[Sighting]) -> Sighting:
    stored = any(_kind(s) in ("attribute", "global", "container-element") for s in sightings)
    return min(sightings, key=lambda s: (stored and (_transit(s) or _loop_alias(s)), not s.live,
                                         KIND_RANK.get(_kind(s), 9), -s.order,
                                         len(s.binding.expression)))


def _loop_alias(s: Sighting) -> bool:
    """`p` left over from `for p in model.parameters()`: another name for what is stored."""
    b = s.binding
    if b.kind != "local" or b.expression != b.root:
        return False
    scope = reading.scope_of(s.frame.file, s.frame.function, s.frame.first_line)
    stores = reading.stores(scope, b.root) if scope is not None else []
    return bool(stores) and all(isinstance(st, (ast.For, ast.AsyncFor)) for st in stores)


def _transit(s: Sighting) -> bool:
    """A local that each iteration binds afresh before reading it (`z = cache.get(i)`): when
    the old value is also held in storage (a cache, an attribute), that name says more."""
    b = s.binding
    # ... or an entry of a local dict built afresh each iteration (`batch["h0"]`)
    fresh_entry = b.kind == "container-element" and b.owner is None and not any(
        c in b.root for c in ".[")
    if b.kind != "local" and not fresh_entry:
        return False
    scope = reading.scope_of(s.frame.file, s.frame.function, s.frame.first_line)
    if scope is None:
        return False
    loops = reading.loops_around(scope, s.frame.line)
    if not loops:  # ... or each call of a step function (`prev = feeder.previous(x)`)
        return _bound_before_read(s)
    loop = loops[-1]
    stores = [st for st in reading.stores(scope, b.root) if reading.inside(st, loop)]
    if not stores:
        return False
    reads = [r for r in reading.reads(scope, b.root) if reading.inside(r, loop)]
    first_store = min(st.lineno for st in stores)
    return not any(r.lineno <= first_store for r in reads)


def _suspects(entries: list[Node], sightings: dict[Node, list[Sighting]]) -> list[Suspect]:
    groups: dict[tuple[str, ...], Suspect] = {}
    for entry in entries:
        seen = sightings.get(entry)
        if not seen:
            continue
        s = best(seen)
        b = s.binding
        kind = _kind(s)
        # A tuple or dict of states (an LSTM's (h, c), {"enc": h, "dec": h}), or a list of
        # them rebound every iteration, is detached as a whole, wherever it is held.
        whole = kind in ("local", "container-element", "attribute") \
            and b.expression != b.root and (s.structure[:1] == "(" or (
                s.structure[:1] in ("[", "{") and _rebound_in_loop(s)))
        expression = b.root if whole else b.expression
        if whole:
            kind = "attribute" if "." in b.root else "local"
            if kind == "local" and _is_argument(s):
                kind = "parameter"
        key = (s.frame.file, s.frame.function, str(s.frame.first_line), expression)
        if key in groups:
            groups[key].entries.append(entry)
            groups[key].sightings.append(s)
        else:
            groups[key] = Suspect(expression, kind, s.frame, s.structure, [entry], [s])
    return sorted(groups.values(), key=_source_order)


def _holders(failure: Failure, suspects: list[Suspect], stale: set[Node],
             mark: int) -> list[Suspect]:
    """A local the loop binds afresh (`emb = model(x)`) is only the way the old graph came
    in when something kept on an object or in a container was computed from it after the
    backward that freed it (`model.centroids` updated from `emb`): that holder, which the
    failing step read, is the culprit."""
    site = failure.record.site if failure.record is not None else None
    # The loss being backwarded (`out["loss"]` of a step's returned dict) holds nothing over.
    roots = set(failure.record.roots) if failure.record is not None else set()
    frames = [frame_info(f) for f in failure.frames]
    live = [(i, b) for i, b in snapshot(failure.frames)[0]
            if (b.kind in ("attribute", "global")
                or b.kind == "container-element" and not _fresh_container(frames[i], b)
                or b.kind == "local" and _kept_past_backward(b.node, site, b.root))
            and b.node not in stale and b.node not in roots and sequence_nr(b.node) > mark >= 0]
    if not live:
        return suspects
    out: list[Suspect] = []
    for suspect in suspects:
        if suspect.kind != "local" or not any(_transit(s) or _rebound(s) or _fresh_each_call(s)
                                              for s in suspect.sightings):
            out.append(suspect)
            continue
        # The local's own new value (`h` rebound from the old `h`) is not a holder.
        holder = next(((i, b) for i, b in live if b.root != suspect.expression
                       and any(reaches(b.node, e, hops=64) for e in suspect.entries)), None)
        if holder is None:
            out.append(suspect)
            continue
        i, b = holder
        sighting = Sighting(b, b.owner or frames[i], True, None, "T")
        out.append(Suspect(b.expression, b.kind, sighting.frame, "T", suspect.entries,
                           [sighting]))
    return out


def _fresh_container(frame: FrameInfo, b: Binding) -> bool:
    """A local dict or list the loop binds anew every iteration (`out = step(batch)`): what
    it holds is this step's, not kept from the last one."""
    if "." in b.root or b.owner is not None:
        return False
    placement = places.place(frame, b.root)
    return placement is not None and bool(placement.stores_in_loop)


def _kept_past_backward(node: Node, site: FrameInfo | None, name: str) -> bool:
    """A local made (a replay knows where) after the backward call, and carried into the
    next step: in the body of the loop that runs it (`neg_store = torch.cat([neg_store, z])`
    once the step is done), or kept between calls of a step function (`nonlocal z`)."""
    scope = site.scope if site is not None else None
    if site is None or scope is None:
        return False
    made = next((f for f in made_at(node) if f.same_code(site)), None)
    if made is None or made.line <= site.line:
        return False
    loops = reading.loops_around(scope, site.line)
    if loops:
        return reading.inside_line(made.line, loops[-1])
    return reading.declares_outer(scope, name)


def _fresh_each_call(s: Sighting) -> bool:
    """A plain local of a step function (called once per step, no loop of its own) that the
    function assigns: bound afresh at every call, so only the way an old value came in."""
    scope = reading.scope_of(s.frame.file, s.frame.function, s.frame.first_line)
    root = s.binding.root
    return isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and not \
        reading.loops_around(scope, s.frame.line) and bool(reading.stores(scope, root)) and \
        not reading.declares_outer(scope, root)


def _rebound(s: Sighting) -> bool:
    """A local assigned inside the loop around where it was seen."""
    placement = places.place(s.frame, s.binding.root)
    return placement is not None and bool(placement.stores_in_loop)


def _made_suspects(entries: list[Node], named: list[Suspect]) -> list[Suspect]:
    """Entries no name in sight holds (state kept by a hook object, a closure, an object in a
    container): a replay knows where each was made, and the statement there says what the
    user's code called it (`self.acts[name] = output`, `memory.append(z)`)."""
    out: list[Suspect] = []
    for entry in entries:
        if any(entry in s.entries for s in named):
            continue
        for frame in site_of(entry) or ():
            found = _stored_as(frame.statement)
            if found is None:
                continue
            expression, kind, root = found
            binding = Binding(expression, kind, entry, root)
            sighting = Sighting(binding, frame, False, None, "T")
            same = next((s for s in out if s.expression == expression
                         and s.frame.same_code(frame)), None)
            if same is not None:
                same.entries.append(entry)
            else:
                out.append(Suspect(expression, kind, frame, "T", [entry], [sighting]))
            break
    return out


def _stored_instead(suspect: Suspect) -> Suspect | None:
    """A local each call of its function binds afresh before reading it (`state =
    self.states.get(k)` in a step method) only passed the stale value on: where a replay saw
    it made, the outermost statement that stored it somewhere kept between calls
    (`out, self.states[k] = model(x, state)`, around the model's own locals) names it."""
    if suspect.kind != "local" or not _bound_before_read(suspect.sightings[0]):
        return None
    kept: list[tuple[tuple[str, str, str], FrameInfo]] = []
    for entry in suspect.entries:
        for frame in site_of(entry) or ():
            found = _stored_as(frame.statement)
            if found is not None and found[1] != "local":
                kept.append((found, frame))
                break
    if not kept or len({(s[0], f.file, f.line) for s, f in kept}) != 1:
        return None
    (expression, kind, root), frame = kept[0]
    sighting = Sighting(Binding(expression, kind, suspect.entries[0], root), frame, False,
                        None, suspect.structure)
    return Suspect(expression, kind, frame, suspect.structure, list(suspect.entries),
                   [sighting])


def _bound_before_read(s: Sighting) -> bool:
    """A local each call of its step function binds afresh (a plain statement of the
    function's body, before any read): it holds nothing from the call before."""
    scope = reading.scope_of(s.frame.file, s.frame.function, s.frame.first_line)
    root = s.binding.root
    if scope is None or not _fresh_each_call(s) or _is_argument(s):
        return False
    first = [st for st in reading.stores(scope, root) if st in getattr(scope, "body", [])]
    return bool(first) and not any(r.lineno <= first[0].lineno
                                   for r in reading.reads(scope, root))


def _stored_as(stmt: ast.stmt | None) -> tuple[str, str, str] | None:
    """What a statement stores its value under: (expression, kind, root)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(
            stmt.value.func, ast.Attribute) and stmt.value.func.attr in reading.MUTATORS:
        container = reading.text(stmt.value.func.value)
        return container, "container-element", container
    if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return None
    targets = reading.targets(stmt)
    if not targets:
        return None
    value = reading.value_span(stmt)
    read = reading.names_in(value) if value is not None else set()
    # `out, h = rnn(x, h)`: the name the value also comes from is the one carried.
    target = next((t for t in targets if reading.text(t) in read), targets[-1])
    if isinstance(target, ast.Subscript):
        root = reading.text(target.value)
        return reading.text(target), "container-element", root
    kind = "attribute" if isinstance(target, ast.Attribute) else "local"
    return reading.text(target), kind, reading.text(target)


def _rebound_in_loop(s: Sighting) -> bool:
    """A list or dict reassigned as a whole each iteration (per-layer states, a dict of
    states), not one filled by append or `d[k] = v` (a history or a buffer, even when it is
    trimmed: `memory = memory[-k:]`)."""
    root = s.binding.root
    tree = reading.parse(s.frame.file)
    written = {root, "self." + root.rsplit(".", 1)[-1]} if "." in root else {root}
    if tree is not None and any(reading.container_stores(node, w) for w in written
                                for node in ast.walk(tree)
                                if isinstance(node, (ast.FunctionDef, ast.Module))):
        return False
    scope = s.frame.scope
    if scope is None:
        return False
    if "." in root:
        return True  # a dict or list of states kept on an object, replaced as a whole
    loops = reading.loops_around(scope, s.frame.line)
    return bool(loops) and any(reading.inside(st, loops[-1])
                               for st in reading.stores(scope, root))


def _source_order(suspect: Suspect) -> tuple[int, int]:
    scope = suspect.scope
    if scope is None:
        return (1 << 30, 0)
    found = reading.reads(scope, suspect.expression)
    if not found:
        return (1 << 29, 0)
    return (found[0].lineno, found[0].col_offset)


def _trained_ids(failure: Failure, scopes: list[dict[str, Any]]) -> set[int]:
    """Parameters held by any optimizer that stepped or that the live frames hold."""
    out: set[int] = set()
    for step in failure.steps:
        opt = step.optimizer()
        if opt is not None:
            out |= param_ids(opt)
    for opt in optimizers_in(scopes):
        out |= param_ids(opt)
    return out


# -- where things are in the source ----------------------------------------------------


def common_frame(a: BackwardRecord, b: BackwardRecord) -> tuple[FrameInfo, FrameInfo] | None:
    """The innermost frame the two calls share (same code), as seen by each call."""
    pairs = list(zip(reversed(a.frames), reversed(b.frames)))
    shared = None
    for fa, fb in pairs:
        if not fa.same_code(fb):
            break
        shared = (fa, fb)
        if fa.line != fb.line:
            break
    return shared


def _same_step(ev: Evidence) -> bool:
    """Did the freeing call run earlier in the same step as the failing one (two backward
    calls over one forward), rather than in an earlier iteration?"""
    freeing, failing = ev.freeing, ev.failing
    if freeing is None:
        return False
    pair = common_frame(freeing, failing)
    if pair is not None and pair[0].line == pair[1].line and not ev.steps_between:
        return _parts_of_one_step(pair[1])
    if pair is None or pair[0].line >= pair[1].line:
        return False
    # A backward at the failing call's site between the two means an iteration passed.
    for record in ev.records:
        if freeing.order < record.order < failing.order and record.site and failing.site \
                and record.site == failing.site:
            return False
    return True


def _parts_of_one_step(site: FrameInfo) -> bool:
    """One call site backwarding twice with no optimizer step in between, in a loop whose
    body steps no optimizer (`for head in heads: crit(head(feats)).backward()`, the step
    after the loop): the iterations are parts of one step, not training steps."""
    scope = site.scope
    loops = reading.loops_around(scope, site.line) if scope is not None else []
    return bool(loops) and not patterns.steps_in(loops[-1])


def owner_class(expression: str, suspect: Suspect,
                scopes: list[dict[str, Any]]) -> tuple[str, ast.ClassDef] | None:
    """For `self.memory` or `model.encoder.memory`: the source of the class that owns it."""
    owner_expr = expression.rsplit(".", 1)[0]
    if owner_expr == "self" and suspect.scope is not None:
        cls = reading.class_of(suspect.frame.file, suspect.scope)
        if cls is not None:
            return suspect.frame.file, cls
    value = resolve(owner_expr, scopes)
    return _class_source(type(value)) if value is not None else None


def _class_source(cls: type) -> tuple[str, ast.ClassDef] | None:
    """Where the project defines this class; None for torch's own classes (not where the
    user stored anything) and for classes without source."""
    try:
        file = inspect.getsourcefile(cls)
        _, line = inspect.getsourcelines(cls)
    except (TypeError, OSError):
        return None
    if file is None or not is_project_file(file):
        return None
    found = reading.class_named(file, cls.__name__, line)
    return (file, found) if found is not None else None


def _project_bases(value: Any) -> list[tuple[str, ast.ClassDef]]:
    """The project's own classes among those `value`'s class inherits from."""
    bases = type(value).__mro__[1:] if value is not None else ()
    return [found for base in bases if (found := _class_source(base)) is not None]


def root_suspect(ev: Evidence) -> Suspect | None:
    """The failing loss itself, when its own graph was freed."""
    for root in ev.failing.roots:
        seen = ev.sightings.get(root)
        if seen:
            s = best(seen)
            return Suspect(s.binding.expression, s.binding.kind, s.frame, s.structure, [root],
                           [s])
    return None


def backward_reads(ev: Evidence, expression: str) -> bool:
    """Is `expression` itself what the failing backward call is made on, or a copy of it
    only scaled by numbers (`loss = state.total / len(TICKERS)`, then `loss.backward()`)?"""
    site = ev.failing.site
    stmt = site.statement if site else None
    if stmt is None:
        return False
    if expression in reading.names_in(stmt):
        return True
    target = patterns.backwarded(stmt)
    scope = site.scope if site is not None else None
    if not isinstance(target, ast.Name) or scope is None:
        return False
    stores = [st for st in reading.stores(scope, target.id) if st.lineno < stmt.lineno]
    value = reading.value_span(stores[-1]) if stores else None
    return value is not None and _scaled(value, expression, ev.live_scopes)


def _scaled(value: ast.expr, expression: str, scopes: list[dict[str, Any]]) -> bool:
    """`expression` times, divided by, plus or minus plain numbers (constants, upper-case
    names, `len(...)`, a name or attribute that holds a Python number right now: a count
    `self.n_seen`), and nothing else."""
    if reading.text(value) == expression:
        return True
    if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Div, ast.Mult, ast.Add,
                                                              ast.Sub)):
        sides = (value.left, value.right)
        return any(_scaled(v, expression, scopes) for v in sides) and all(
            _scaled(v, expression, scopes) or plain_number(v, scopes) for v in sides)
    return False


def plain_number(node: ast.expr, scopes: list[dict[str, Any]]) -> bool:
    """A constant, an upper-case name, `len(...)`, or a name that holds a number now."""
    if isinstance(node, (ast.Name, ast.Attribute)):
        held = evaluate(node, scopes)
        if isinstance(held, (int, float)) and not isinstance(held, bool):
            return True
    return isinstance(node, ast.Constant) or isinstance(node, ast.Name) and node.id.isupper() \
        or isinstance(node, ast.Call) and reading.text(node.func) in ("len", "float", "int")


def stores_of(ev: Evidence, suspect: Suspect
              ) -> list[tuple[str, reading.Scope, ast.stmt, str]]:
    """Every statement that assigns the suspect (an attribute or global), in its frame's
    function and in the class that owns it: (file, function, statement, name as written)."""
    expr = suspect.expression
    candidates: list[tuple[str, ast.AST]] = []
    if suspect.scope is not None:
        candidates.append((suspect.frame.file, suspect.scope))
    owner = owner_class(expr, suspect, ev.live_scopes) if "." in expr else None
    if owner is not None:
        candidates.append(owner)
        # A mixin of the project's that the class inherits writes it (`write_state`).
        candidates += _project_bases(resolve(expr.rsplit(".", 1)[0], ev.live_scopes))
    local_expr = "self." + expr.rsplit(".", 1)[1] if "." in expr else expr
    # State kept on the class itself is written through its name (`Anchors._cache[k] = v`).
    spelled = {local_expr} | ({f"{owner[1].name}.{expr.rsplit('.', 1)[1]}"}
                              if owner is not None and "." in expr else set())
    found: list[tuple[str, reading.Scope, ast.stmt, str]] = []
    # An entry of a container kept between calls (`self.states['doc0']`) is stored under
    # the key as the code writes it (`self.states[doc_id] = ...`).
    root = suspect.sightings[0].binding.root if suspect.kind == "container-element" else None
    roots = set() if root is None else {root, "self." + root.rsplit(".", 1)[1]} \
        if "." in root else {root}
    if root is not None and "." in root and owner is None:
        owner = owner_class(root, suspect, ev.live_scopes)
        if owner is not None:
            candidates.append(owner)
    for file, scope in candidates:
        for node in ast.walk(scope):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                continue
            for e in dict.fromkeys((expr, *sorted(spelled))):
                found += [(file, node, stmt, e) for stmt in reading.stores(node, e)]
            for r in roots | (spelled if suspect.kind == "attribute" and suspect.structure[
                    :1] in "{[(" else set()):
                found += [(file, node, stmt, kept)
                          for stmt, _ in reading.container_stores(node, r)
                          for t in reading.targets(stmt) if isinstance(t, ast.Subscript)
                          and reading.text(t.value) == r
                          and (kept := reading.text(t)) != expr]
    # A replay knows where the stale value was made: a store there that names the same
    # attribute is where it was kept, whatever the object is called in that method
    # (`state.mem = ...` in a model's forward that was handed `state`).
    attribute = expr.rsplit(".", 1)[-1]
    for entry in suspect.entries:
        for frame in site_of(entry) or ():
            stmt, code = frame.statement, frame.scope
            if stmt is None or code is None:
                continue
            written = [reading.text(t) for t in reading.targets(stmt)]
            match = next((w for w in written if w == expr or "." in expr and "." in w
                          and w.rsplit(".", 1)[-1] == attribute), None)
            if match is None and root is not None:  # `state[name] = cell(x, state[name])`
                last = root.rsplit(".", 1)[-1]
                match = next((reading.text(t) for t in reading.targets(stmt)
                              if isinstance(t, ast.Subscript) and reading.text(
                                  t.value).rsplit(".", 1)[-1] == last), None)
            if match is None and "." in expr and constructor_keyword(stmt, expr) is not None:
                match = expr  # `cfg = Config(alpha_bar=schedule())` sets `cfg.alpha_bar`
            if match is None and "." in expr:
                # Made into a local that the same function then stores (`h = cell(x, h)` in
                # the loop, `state.analysis = h` after it): the store is where it was kept.
                stmt, match = next(((s, w) for s, w in _stored_from(code, written, attribute)),
                                   (stmt, None))
            if match is not None and all(f[2] is not stmt for f in found):
                found.append((frame.file, code, stmt, match))
    return found


def _stored_from(scope: ast.AST, names: list[str], attribute: str
                 ) -> list[tuple[ast.stmt, str]]:
    """Statements of `scope` that store one of the local `names` as it is into an attribute
    called `attribute` (`state.analysis = h`), with the target as written."""
    out: list[tuple[ast.stmt, str]] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and reading.text(node.value) in names:
            out += [(node, w) for t in node.targets if isinstance(t, ast.Attribute)
                    and t.attr == attribute and (w := reading.text(t))]
    return out


def constructor_keyword(stmt: ast.stmt, expression: str) -> ast.keyword | None:
    """`cfg = Config(n=4, alpha_bar=schedule())` for `cfg.alpha_bar`: the keyword a
    dataclass (or any object keeping its arguments) is built with."""
    owner, _, attribute = expression.rpartition(".")
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
    if not isinstance(value, ast.Call) or [reading.text(t) for t in reading.targets(stmt)] != [
            owner]:
        return None
    return next((k for k in value.keywords if k.arg == attribute), None)


def recurrent_store(ev: Evidence,
                    suspect: Suspect) -> tuple[str, reading.Scope, ast.stmt, str] | None:
    """`out, self.h = self.rnn(x, self.h)`: where state on an object (or a global) is
    assigned from a call that also reads it, and the name as written there (`self.h` in
    the model's method for what the training loop calls `net.h`)."""
    for file, scope, stmt, e in stores_of(ev, suspect):
        value = reading.value_span(stmt)
        # ... or hands it back under the local it was read into (`state = states.get(k)`,
        # then `out, states[k] = model(x, state)`).
        if value is not None and any(patterns.feeds_call(value, name)
                                     for name in {e} | read_into(scope, {e})):
            return file, scope, stmt, e
    return None


def fed_back(ev: Evidence, suspect: Suspect) -> bool:
    """Is the stored value handed back to a model-like call, here or where it is read
    (`self.model(x, self.model.hidden)` in a trainer, with `self.hidden = hn` in the model's
    forward)? Then it is a state carried from step to step, not a bank of past values."""
    if recurrent_store(ev, suspect) is not None:
        return True
    if not any((v := reading.value_span(s)) is not None and not patterns.creates(v)
               for _, _, s, _ in stores_of(ev, suspect)):
        return False  # never updated from a computation: not a state
    expr = suspect.expression
    names = {expr, "self." + expr.rsplit(".", 1)[-1]} if "." in expr else {expr}
    getters = _getters(ev, suspect)

    frames = [s.frame for s in suspect.sightings] + [f for f in ev.failing.frames[:3]]
    for frame in frames:
        scope = frame.scope
        if scope is None:
            continue
        # ... also under the local it is read into first (`obs, hx = state.obs, state.hx`)
        names = names | read_into(scope, names)
        for call in (n for s in reading.statements(scope) if not reading.is_compound(s)
                     for n in ast.walk(s) if isinstance(n, ast.Call)):
            arguments = [*call.args, *(k.value for k in call.keywords)]
            if reading.text(call.func) in suspect.holders:
                return True  # `lif1(x)` runs the closure that reads and updates its cell
            handed = any(reading.text(a) in names or isinstance(a, ast.Call) and isinstance(
                a.func, ast.Attribute) and a.func.attr in getters for a in arguments)
            if handed and not reading.text(call.func).startswith(("torch.", "F.", "np.",
                                                                  "math.")):
                return True
    return False


def _getters(ev: Evidence, suspect: Suspect) -> set[str]:
    """Methods of the class that keeps the value which return something built from it
    (`node_inputs(feats)` returning `torch.cat([feats, self.soft_labels])`): handing their
    result to a model hands it the value."""
    if "." not in suspect.expression:
        return set()
    owner = owner_class(suspect.expression, suspect, ev.live_scopes)
    if owner is None:
        return set()
    read = "self." + suspect.expression.rsplit(".", 1)[-1]
    return {m.name for m in owner[1].body if isinstance(m, ast.FunctionDef) and any(
        isinstance(r, ast.Return) and r.value is not None and read in reading.names_in(r.value)
        for r in ast.walk(m))}


def read_into(scope: ast.AST, names: set[str]) -> set[str]:
    """Locals assigned straight from one of `names` in `scope` (`hx = state.hx`, or one
    element of a tuple assignment), or chosen between it and a default (`cond = state.prev
    if state.prev is not None else zeros`, `h = state.h or zeros`)."""
    def chosen(value: ast.expr) -> list[str]:
        if isinstance(value, ast.IfExp):
            return [reading.text(value.body), reading.text(value.orelse)]
        if isinstance(value, ast.BoolOp):
            return [reading.text(v) for v in value.values]
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
                value.func.attr == "get" and value.args:  # `states.get(doc_id)`
            return [f"{reading.text(value.func.value)}[{reading.text(value.args[0])}]"]
        return [reading.text(value)]

    found: set[str] = set()
    for stmt in reading.statements(scope):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            found |= {t.id for t, v in reading.assigned_pairs(stmt)
                      if isinstance(t, ast.Name) and any(c in names for c in chosen(v))}
    return found


# -- for the causes: the words and the finding's frame -----------------------------------


def detach_where_handed_in(ev: Evidence, suspect: Suspect) -> Remedy | None:
    """`state.mem = state.mem.detach()` at the top of the loop that backwards, before the
    statement that hands the object holding the state to the model (`net(chunk, state)`),
    for every stale piece of state seen there."""
    site = ev.failing.site
    scope = site.scope if site is not None else None
    if site is None or scope is None or not suspect.frame.same_code(site):
        return None
    loops = reading.loops_around(scope, site.line)
    if not loops:
        return None
    carried = [s for s in ev.suspects if s.kind == suspect.kind and s.frame.same_code(site)]
    roots = [s.expression.split(".")[0].split("[")[0] for s in carried]
    body = loops[-1].body
    uses = [u for r in roots if (u := reading.first_use(body, scope, r)) is not None]
    target = min(uses, key=lambda u: u.lineno) if uses else body[0]
    if target.lineno > site.line:
        return None
    # Elements of one container handed in whole (`model(x, state)` updating `state[name]`)
    # carry the container's structure: the container is detached once, as a whole.
    pieces = list(dict.fromkeys(
        (s.sightings[0].binding.root, s.structure) if s.kind == "container-element"
        and s.structure[:1] in "{[(" else (s.expression, s.structure) for s in carried))
    if any(expression == "self" for expression, _ in pieces):
        return None  # the object running the loop is not a state to detach
    statements = [detach_statement(scope, expression, structure)
                  for expression, structure in pieces]
    names = " and ".join(expression for expression, _ in pieces)
    return Remedy("detach-at-boundary", f"detach {names} before each step uses it", site.file,
                  target.lineno, (Insert(site.file, target.lineno, "\n".join(statements),
                                         reading.indent_of(site.file, target.lineno)),))


def as_written(expression: str, file: str | None, line: int | None) -> str:
    """`model.memory` found on the model is `self.memory` where the class assigns it;
    `state['hx']`, a key as Python prints it, is `state["hx"]` where the code writes so."""
    if file is None or line is None:
        return expression
    text = reading.line_text(file, line)
    if "'" in expression and expression not in text and expression.replace("'", '"') in text:
        return expression.replace("'", '"')
    if "." not in expression:
        return expression
    attr = "self." + expression.rsplit(".", 1)[1]
    if expression != attr and attr in text:
        return attr
    return expression


def describe_call(ev: Evidence, which: str) -> str:
    record = ev.freeing if which == "freeing" else ev.failing
    if record is None:
        return "an earlier backward call that is no longer in the record"
    site = places.frame_location(record.site)
    where = f"{site.file}:{site.line}" if site else "an unknown place"
    return f"the backward call at {where} (call #{record.number})"


def claim(ev: Evidence, category: str, why: str, hint: str, suspect: Suspect | None,
          assigned: tuple[str, int] | None, remedy: Remedy | None,
          expression: str | None = None, **details: object) -> Claim:
    """A backward-twice claim: the culprit as written where it was assigned, both calls,
    and the other names through which the failing call entered the freed graph."""
    found = None
    if suspect is not None:
        file, line = assigned if assigned else (None, None)
        name = expression or as_written(suspect.expression, file, line)
        found = places.culprit(name, suspect.kind, file, line)
    extra: dict[str, Any] = dict(details)
    if len(ev.suspects) > 1 and not ev.split:
        extra["also"] = [s.expression for s in ev.suspects[1:]]
    return Claim(category, why, hint, found, places.frame_location(ev.failing.site),
                 places.frame_location(ev.freeing.site) if ev.freeing else None, extra, remedy)


# Ops that only move, pick or join values: a weight is applied to a value only by an op
# that computes with it, whatever reshaping lies in between.
_MOVES = ("ViewBackward", "ReshapeAliasBackward", "UnsafeViewBackward", "UnsqueezeBackward",
          "SqueezeBackward", "TBackward", "TransposeBackward", "PermuteBackward",
          "ExpandBackward", "CloneBackward", "ToCopyBackward", "SelectBackward",
          "SliceBackward", "IndexBackward", "CatBackward", "StackBackward", "SplitBackward",
          "SplitWithSizesBackward", "UnbindBackward", "NarrowBackward", "AliasBackward",
          "ContiguousBackward", "UnsafeSplitBackward", "AsStridedBackward")

# Nodes through which the loss depends linearly on an input: a term reached from the loss
# through these only is added to it (scaled, summed, reshaped), never combined with what
# trains.
_LINEAR = ("AddBackward", "SubBackward", "NegBackward", "SumBackward", "MeanBackward",
           *_MOVES)


def _linear(node: Node) -> bool:
    name = node_name(node).rstrip("0123456789")
    if name in ("MulBackward", "DivBackward"):  # scaled by a constant, not a product
        return sum(1 for n, _ in node.next_functions if n is not None) == 1
    return name in _LINEAR


def added_term(ev: Evidence) -> bool:
    """Does the failing loss reach the stale value only through sums and constant scales?
    Then the value is a term of the loss on its own (`loss = fit + reg`), not an input of
    what trains, and its graph is its whole purpose."""
    entries = set(ev.entries)
    if not entries or any(r in entries for r in ev.failing.roots):
        return False
    nodes = walk(ev.failing.roots, stop=set(ev.stale))
    feeds = consumers([*nodes, *entries])
    # Every node on a path from the loss into the stale value must be linear.
    on_path: set[Node] = set()
    todo = list(entries)
    while todo:
        for parent in feeds.get(todo.pop(), []):
            if parent not in on_path:
                on_path.add(parent)
                todo.append(parent)
    return bool(on_path) and all(_linear(n) for n in on_path)




def _moves(node: Node) -> bool:
    return node_name(node).rstrip("0123456789") in _MOVES


def _weights_of(node: Node) -> bool:
    """Does `node` take a trainable leaf as an input, directly or only reshaped?"""
    todo, seen = list(inputs_of(node)), set()
    while todo:
        child = todo.pop()
        if child in seen:
            continue
        seen.add(child)
        leaf = leaf_of(child)
        if leaf is not None and leaf.requires_grad:
            return True
        if _moves(child):
            todo.extend(inputs_of(child))
    return False


def into_weights(ev: Evidence, entries: list[Node]) -> bool:
    """Is the stale value an input of a computation with the model's weights (`W_hh @ h`,
    a convolution over `cat([cache, x])`), reshaped or joined on the way at most? A state
    the model computes on is carried from step to step; a bank, a target or an average the
    loss only compares with or adds is stored."""
    return any(not _moves(n) and _weights_of(n) for n in _above(ev, entries, _moves))


def _above(ev: Evidence, entries: Iterable[Node], through: Callable[[Node], bool],
           feeds: dict[Node, list[Node]] | None = None) -> Iterator[Node]:
    """The nodes of the failing step's graph that take the entries' values as inputs,
    nearest first, going further up only through nodes `through` accepts (`feeds`: the
    graph's consumers, when the caller has them already)."""
    entries = list(entries)
    if feeds is None:
        feeds = consumers([*walk(ev.failing.roots, stop=set(ev.stale)), *entries])
    todo, seen = list(entries), set()
    while todo:
        for parent in feeds.get(todo.pop(0), []):
            if parent not in seen:
                seen.add(parent)
                yield parent
                if through(parent):
                    todo.append(parent)


def updated_within_step(ev: Evidence, suspect: Suspect) -> bool:
    """Did the statement that stores the value compute it anew from itself more than once
    in the failing step (`self.mem = mem - spk * th` once per time step of a spiking
    layer)? The loss then backwards through the state's own history within the step, and
    only its carry across steps is wrong: a state, not a store to detach."""
    made = {(f.file, f.line) for e in suspect.entries if (site := site_of(e)) for f in site[:1]}
    stores = [(file, stmt) for file, _, stmt, _ in stores_of(ev, suspect)]
    if not made or not any(file == f and reading.inside_line(line, stmt)
                           for f, line in made for file, stmt in stores):
        return False

    feeds = consumers([*walk(ev.failing.roots, stop=set(ev.stale)), *suspect.entries])
    # What the suspect holds now, to tell its own history from another object's run of the
    # same line (the next layer's copy of the statement).
    held = {t.grad_fn for t in tensors_in(resolve(suspect.expression, ev.live_scopes), 4,
                                            mappings=True) if t.grad_fn is not None}
    own = set(walk(list(held), stop=set(ev.stale))) if held else set()
    for file, line in made:
        place = (file, line)
        stmt = next((st for f, st in stores if f == file and reading.inside_line(line, st)),
                    None)
        if stmt is None:
            continue
        # The same statement ran again on its own result: a value that left it came back
        # (`mem = beta * self.mem + x`, then `self.mem = mem - spk`), or a chain of its ops
        # longer than one run of it has (`s.mem = beta * s.mem + s.syn`, once per time step).
        # Two buffers updated one after the other are two statements.
        again = {n for n in _above(ev, suspect.entries, lambda _: True, feeds)
                 if _line_made(n) == place}
        out = [p for n in again for p in feeds.get(n, []) if _line_made(p) != place]

        def elsewhere(node: Node, at: tuple[str, int] = place) -> bool:
            return _line_made(node) != at

        if any(_line_made(n) == place and n in own for n in _above(ev, out, elsewhere, feeds)):
            return True
        ops = sum(isinstance(n, (ast.BinOp, ast.UnaryOp, ast.Call, ast.Subscript, ast.Compare))
                  for n in ast.walk(stmt))
        chain = {p for e in suspect.entries for p in feeds.get(e, []) if _line_made(p) == place}
        for _ in range(ops):
            chain = {p for n in chain for p in feeds.get(n, []) if _line_made(p) == place}
        if chain:
            return True
    return False


def _line_made(node: Node) -> tuple[str, int] | None:
    """The file and line of the user's code that made this node (replay only)."""
    site = site_of(node)
    return (site[0].file, site[0].line) if site else None


def recurrent(ev: Evidence, suspect: Suspect) -> bool:
    """Is the stale value computed anew from itself: the value the suspect holds now was
    computed from it (`self.cache = cat([self.cache, x])[..., -k:]`), or the statement that
    made it ran again in the failing step, on it (`stylized = net(cat([frame, prev]))`
    with `prev` the last step's `stylized`, stored after the step)? A bank refilled from
    itself is recurrent too; a cache refreshed from new data is not."""
    entries = set(suspect.entries)
    held = resolve(suspect.expression, ev.live_scopes)
    now = [t.grad_fn for t in tensors_in(held, 4, mappings=True)
           if t.grad_fn is not None and t.grad_fn not in entries]
    # A row written into a table keeps the table as an input by construction; it is the
    # values written that say whether it is computed from itself.
    written = [c for n in now for c, _ in (n.next_functions[1:] if node_name(n).startswith(
        ("IndexPutBackward", "CopySlices")) else ((n, 0),)) if c is not None
        and c not in entries]  # a row that is the old value itself is held, not computed
    if written and entries & set(walk(written)):
        return True
    made = {(f.file, f.line) for e in entries if (site := site_of(e)) for f in site[:1]}
    if not made:  # known from a replay only
        return False
    # Updated before the failing call (`self.h = self.cell(x, self.h)` in the forward): the
    # value held is this step's, computed from a value of an earlier step (in the freed
    # graph) that the same statement made.
    fresh = [e for e in entries if e not in ev.stale]
    if fresh and any(n in ev.stale and (site := site_of(n)) and (site[0].file, site[0].line)
                     in made for n in walk(fresh)):
        return True
    return any((site := site_of(n)) and (site[0].file, site[0].line) in made
               for n in _above(ev, entries, lambda _: True))


def recompute_in_loop(ev: Evidence, placement: places.Placement, store: ast.stmt,
                      suspect: Suspect) -> Remedy | None:
    """The statements before the loop that built the freed graph, moved into it before the
    first read: computed once per iteration."""
    loop = placement.loop
    if loop is None:
        return None
    chain = _chain(ev, placement, store)
    target = reading.first_use(loop.body, placement.scope, suspect.expression) or loop.body[0]
    indent = reading.indent_of(placement.file, target.lineno)
    # A statement whose value is also read before the loop (`fake` handed to the critic's
    # step) stays there too: the loop gets its own copy.
    kept = [s for s in getattr(placement.scope, "body", []) if s.lineno < loop.lineno
            and not any(s is c for c in chain)]
    moves = tuple(
        Insert(placement.file, target.lineno, textwrap.dedent(reading.segment(placement.file, s)),
               indent)
        if any(t in reading.names_in(k) for t in map(reading.text, reading.targets(s))
               for k in kept if k.lineno > s.lineno)
        else Move(placement.file, s.lineno, s.end_lineno or s.lineno, target.lineno, indent)
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
        for target in reading.targets(stmt):
            value = resolve(reading.text(target), ev.live_scopes)
            node = getattr(value, "grad_fn", None)
            if node is not None and node in ev.stale:
                chain.append(stmt)
                break
    return chain
