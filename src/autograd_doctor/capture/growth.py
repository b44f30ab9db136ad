"""The growth watch: a graph that grows every step (no error is raised), seen as a tensor
whose new value is built on its previous one, so every step's graph stays attached; or a list
that gains one tensor with history per step. graph_growth's evidence explains it.

After each backward call, compare the named tensors with those of the previous call: when a
name's new node reaches its old node within a few hops, the history is carried over. Checked
on every one of the first CHECK_FIRST calls and on one call in EVERY after that, so it
notices within the first steps and costs next to nothing once nothing grows.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from autograd_doctor.capture.ledger import BackwardRecord, Ledger
from autograd_doctor.graph.walk import Node, roots_of, saved_bytes, sequence_nr, walk
from autograd_doctor.source.places import FrameInfo

CHECK_FIRST = 20
EVERY = 25
IN_A_ROW = 2  # steps in a row that must show the same growth (a 4-step run shows two)
HOPS = 4
# A graph kept with retain_graph=True may grow through a recurrence run many times per step
# (a memory updated per token): follow it further there, within a budget of nodes.
RETAINED_HOPS = 256
BUDGET = 2048
SIZED = 3  # graph sizes recorded for the first backward calls


@dataclass
class Growth:
    kind: str  # "chain" (a tensor built on its previous value) or "list"
    expression: str
    frame: FrameInfo
    record: BackwardRecord
    in_backward: bool  # the growing tensor is part of what backward goes through
    sizes_first: list[int]
    size_now: int
    bytes_held: int
    lengths: list[int] = field(default_factory=list)
    structure: str = "T"  # of the growing value (see graph.names.structure)
    trace: Any = None  # capture.tracer.Trace, when this run is a replay
    element: str = ""  # for a value in a container, its own expression (`metrics['nll']`)
    held: Node | None = None  # the growing value's node (for a list, one entry's)


Key = tuple[str, str, int, str]


def will_check(number: int) -> bool:
    """Does the watch look at backward call `number`? (What it needs is only gathered then.)"""
    return number <= CHECK_FIRST or number % EVERY == 0


class GrowthWatch:
    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.streak: dict[Key, int] = {}
        self.lengths: dict[Key, list[int]] = {}
        self.reported: set[str] = set()  # expressions already reported (once is enough)
        self.reported_nodes: set[Node] = set()  # ... and the values, under whatever name
        self._lock = threading.Lock()  # two threads may train two models at once

    def after_backward(self, ledger: Ledger, record: BackwardRecord, tensors: Any
                       ) -> Growth | None:
        with self._lock:
            return self._after_backward(ledger, record, tensors)

    def _after_backward(self, ledger: Ledger, record: BackwardRecord, tensors: Any
                        ) -> Growth | None:
        number = record.number
        roots = roots_of(tensors) if number <= SIZED or record.retained else []
        if number <= SIZED:
            self.sizes.append(len(walk(roots)))
        if not will_check(number):
            return None
        if record.higher_order:
            return None  # a second-order inner step: its graph grows within the step on purpose
        if record.api == "grad" and record.retained and ledger.steps == 0:
            return None  # an unrolled inner loop (a learned optimizer): the final backward
            # goes through every inner step on purpose; nothing has trained yet to compare
        records, _ = ledger.snapshot()
        # Growth is from one training step to the next: compare with the last call of an
        # earlier step (an optimizer step in between), or the last call when nothing steps.
        # Before any step, `autograd.grad` calls are an inner loop of their own (Langevin
        # sampling, an attack on the inputs), whose chain ends with the call that runs it.
        previous = [r for r in records if r.order < record.order and r.thread == record.thread
                    and not r.higher_order and (r.steps_before < record.steps_before
                                                or ledger.steps == 0 and record.api != "grad")]
        if not previous:
            return None
        before = max(previous, key=lambda r: r.order)
        found = self._chains(record, before, roots) or self._lists(record, before)
        return found

    def _chains(self, record: BackwardRecord, before: BackwardRecord,
                roots: list[Node]) -> Growth | None:
        old = {_key(before.frames[i], b.expression): b.node for i, b in before.bindings}
        hops = RETAINED_HOPS if record.retained or before.retained else HOPS
        for i, b in record.bindings:
            key = _key(record.frames[i], b.expression)
            prior = old.get(key)
            if prior is None or prior is b.node:
                continue  # no new value since the last call (two backward calls in one step)
            grew = reaches(b.node, prior, hops)
            self.streak[key] = self.streak.get(key, 0) + 1 if grew else 0
            name = b.root if b.expression.startswith(b.root + "[") else b.expression
            if self.streak[key] >= IN_A_ROW and name not in self.reported and not any(
                    node is b.node or reaches(b.node, node, hops=64)
                    for node in self.reported_nodes):
                # One growing value under two names (`self.memory`, `trainer.memory`) is
                # reported once: its chain reaches the one reported already.
                self.reported.add(name)
                # Every entry of a reported container too: the same dict is reached under
                # another name (`trainer.class_loss` for `self.class_loss`).
                self.reported_nodes.update(o.node for _, o in record.bindings
                                           if o.root == b.root)
                graph = walk([b.node])
                traversed = set(walk(roots)) if roots else set()
                # The loss may read the value before this step's update of it (the update
                # comes after backward): its previous value is then what backward goes into.
                in_backward = b.node in traversed or prior in traversed
                size_now = len(walk(roots)) if in_backward else len(graph)
                structure = record.structures.get((i, b.root), "T") if name == b.root else "T"
                # A closure's variable lives in the closure's code, wherever it is held.
                return Growth("chain", name, b.owner or record.frames[i], record, in_backward,
                              list(self.sizes), size_now, saved_bytes(graph),
                              structure=structure, element=b.expression, held=b.node)
        return None

    def _lists(self, record: BackwardRecord, before: BackwardRecord) -> Growth | None:
        lists: dict[tuple[int, str], tuple[int, Node, str, int]] = record.extra.get("lists", {})
        for (i, name), (length, node, parts, holder) in lists.items():
            key = _key(record.frames[i], name)
            seen = self.lengths.setdefault(key, [])
            if not seen or length != seen[-1]:
                # Two backward calls in one step see the same length: one step, one look.
                seen.append(length)
            rising = len(seen) > IN_A_ROW and all(
                a < b for a, b in zip(seen[-IN_A_ROW - 1:], seen[-IN_A_ROW:]))
            # Lists kept by name in one dict (`outputs['loss']`, `outputs['emb']`) are one
            # container filled in one place: reported once.
            whole = name.split("[", 1)[0]
            if rising and name not in self.reported and whole not in self.reported:
                self.reported.update((name, whole))
                # The same container under other names in sight now (`h['l2']` in the loop
                # for the trainer's `self.history['bpr']`, one `defaultdict(list)`).
                self.reported.update(other for (_, other), entry in lists.items()
                                     if entry[3] == holder)
                return Growth("list", name, record.frames[i], record, False, list(self.sizes),
                              length, 0, list(seen), structure=parts, held=node)
        return None


def _key(frame: FrameInfo, expression: str) -> Key:
    return (frame.file, frame.function, frame.first_line, expression)


FIRST_INPUTS = 64


def _first_inputs_reach(node: Node, target: Node, floor: int) -> bool:
    """A value updated from itself (`ema[k] = d * ema[k] + ...` once per bin, `x.add_(y)`)
    chains each update on its first input: followed alone, that single path reaches the
    previous value however many updates a step makes, at the cost of one node per update."""
    current = node
    for _ in range(FIRST_INPUTS):
        inputs = current.next_functions
        current = inputs[0][0] if inputs else None
        if current is None or sequence_nr(current) < floor:
            return False
        if current is target:
            return True
    return False


def reaches(node: Node, target: Node, hops: int = HOPS) -> bool:
    """Is `target` an input of `node` within `hops` steps? Nodes made before `target` cannot
    lead to it (inputs are always older), which keeps the search to a handful of nodes."""
    floor = sequence_nr(target)
    if _first_inputs_reach(node, target, floor):
        return True
    frontier, seen = [node], {node}
    for _ in range(hops):
        if len(seen) > BUDGET:
            return False
        nxt = []
        for current in frontier:
            for child, _ in current.next_functions:
                if child is None or child in seen:
                    continue
                if child is target:
                    return True
                seen.add(child)
                if sequence_nr(child) > floor:
                    nxt.append(child)
        frontier = nxt
    return False
