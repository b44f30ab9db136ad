"""A bounded record of recent backward calls and optimizer steps.

Each record keeps what diagnosis needs later and is cheap to take now: the user call site,
the graph roots (only for calls that free their graph, so no saved tensor outlives its
backward) and the named tensors in the calling frames. Nothing here walks a graph.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from autograd_doctor.graph.names import Binding
from autograd_doctor.graph.walk import Node
from autograd_doctor.source.places import FrameInfo

# How many recent backward calls to remember. The freeing backward is almost always one of
# the last few (the previous iteration, or an earlier call in the same step).
MAX_RECORDS = 8
MAX_STEPS = 16


@dataclass
class BackwardRecord:
    order: int  # position among all recorded events (backward calls and steps)
    number: int  # 1 for the first backward call of the run, 2 for the next...
    api: str  # "backward" or "grad"
    frames: tuple[FrameInfo, ...]  # user frames, innermost first; frames[0] is the call site
    bindings: tuple[tuple[int, Binding], ...]  # (index into frames, binding)
    structures: dict[tuple[int, str], str]  # (frame index, name) -> sketch (graph.names.structure)
    retained: bool
    higher_order: bool = False  # create_graph=True: part of a second-order computation
    roots: tuple[Node, ...] = ()  # only for calls that free their graph
    root_is_leaf: bool = False  # backward on a tensor that has no grad_fn
    thread: int = 0
    failed: bool = False
    steps_before: int = 0  # optimizer steps recorded before this call
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def site(self) -> FrameInfo | None:
        return self.frames[0] if self.frames else None


@dataclass(frozen=True)
class StepRecord:
    order: int
    number: int
    optimizer: weakref.ref[Any]
    site: FrameInfo | None
    sequence: int = -1  # the stepping thread's autograd sequence counter after the step
    thread: int = 0


class Ledger:
    """Thread-safe, bounded. Readers take a `snapshot()` and never see later changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._order = itertools.count(1)
        self.backward_calls = 0
        self.steps = 0
        # Calls that free their graph, and the others, kept apart: the inner-loop
        # `autograd.grad(..., create_graph=True)` calls of a meta-learner must not push the
        # call that freed a graph out of the record.
        self._records: deque[BackwardRecord] = deque(maxlen=MAX_RECORDS)
        self._kept: deque[BackwardRecord] = deque(maxlen=MAX_RECORDS)
        self._steps: deque[StepRecord] = deque(maxlen=MAX_STEPS)

    def numbers(self) -> tuple[int, int]:
        """(order, backward number) for a new backward call, taken together so that two
        threads never get the same or crossed numbers."""
        with self._lock:
            self.backward_calls += 1
            return next(self._order), self.backward_calls

    def add_backward(self, record: BackwardRecord) -> None:
        with self._lock:
            (self._kept if record.retained else self._records).append(record)

    def add_step(self, optimizer: Any, site: FrameInfo | None, sequence: int,
                 thread: int) -> StepRecord:
        with self._lock:
            self.steps += 1
            step = StepRecord(next(self._order), self.steps, weakref.ref(optimizer), site,
                              sequence, thread)
            self._steps.append(step)
            return step

    def snapshot(self) -> tuple[tuple[BackwardRecord, ...], tuple[StepRecord, ...]]:
        with self._lock:
            records = sorted([*self._records, *self._kept], key=lambda r: r.order)
            return tuple(records), tuple(self._steps)

    def clear(self) -> None:
        with self._lock:
            self._records.clear()
            self._kept.clear()
            self._steps.clear()
