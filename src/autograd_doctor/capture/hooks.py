"""The only code that changes torch's global state: wrappers around `torch.autograd.backward`
and `torch.autograd.grad`, and the global optimizer-step hooks. `uninstall()` restores all.

Nothing here may raise into the user's program: every call into our own code goes through
the Boundary, and the user's exception always propagates unchanged (with notes added by the
listener). Which errors are worth diagnosing is the listener's business, not capture's.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

import torch
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)

from autograd_doctor.boundary import Boundary
from autograd_doctor.capture.frames import (
    TORCH_DIR,
    frame_info,
    is_own_file,
    is_user_file,
    list_lengths,
    scopes_of,
    snapshot,
    user_frames,
)
from autograd_doctor.capture.growth import will_check
from autograd_doctor.capture.ledger import BackwardRecord, Ledger, StepRecord
from autograd_doctor.capture.tracer import Trace
from autograd_doctor.graph.walk import roots_of

# Set on an exception once a listener has seen it (a nested backward, or the same error
# reaching the top of the program): the exception object itself says so, never its id().
SEEN_ATTRIBUTE = "_autograd_doctor_seen"


@dataclass
class Failure:
    """An error raised by autograd, caught while the user's frames are still alive."""

    exception: BaseException
    record: BackwardRecord | None  # the failing call; None when it failed outside backward
    frames: list[FrameType]  # live user frames at the failure, innermost first
    records: tuple[BackwardRecord, ...]  # the ledger, this thread's and others'
    steps: tuple[StepRecord, ...]
    thread: int = 0
    trace: Trace | None = None  # the replay's full trace, when this run is a replay

    def scopes(self) -> list[dict[str, Any]]:
        return scopes_of(self.frames)

    def own_records(self) -> tuple[BackwardRecord, ...]:
        """Backward calls made by the failing thread: another thread's training loop says
        nothing about this one (and its sequence numbers count on another counter)."""
        return tuple(r for r in self.records if r.thread == self.thread)

    def own_steps(self) -> tuple[StepRecord, ...]:
        return tuple(s for s in self.steps if s.thread == self.thread)


FailureListener = Callable[[Failure], None]
BackwardListener = Callable[["Capture", BackwardRecord, Any], None]
StepListener = Callable[["Capture", Any], None]

_lock = threading.Lock()
_active: Capture | None = None
_originals: dict[str, Any] = {}


def active() -> Capture | None:
    return _active


class Capture:
    def __init__(
        self,
        on_failure: FailureListener,
        on_backward: BackwardListener | None = None,
        on_step: StepListener | None = None,
        boundary: Boundary | None = None,
    ) -> None:
        self.on_failure = on_failure
        self.on_backward = on_backward
        self.on_step = on_step
        self.boundary = boundary or Boundary()
        self.ledger = Ledger()
        self._handles: list[Any] = []
        self._probe = torch.zeros((), requires_grad=True)

    # -- installation -------------------------------------------------------------------

    def install(self) -> None:
        global _active
        with _lock:
            if _active is not None:
                raise RuntimeError("autograd-doctor is already installed")
            for api in ("backward", "grad"):
                current = getattr(torch.autograd, api)
                # Our own wrapper left in place under another tool's (see uninstall) is
                # passed through, never wrapped a second time.
                while getattr(current, "__autograd_doctor__", False):
                    current = current.__wrapped__
                _originals[api] = current
                setattr(torch.autograd, api, _wrap(current, api))
            self._handles = [
                register_optimizer_step_pre_hook(self._before_step),
                register_optimizer_step_post_hook(self._after_step),
            ]
            _active = self

    def uninstall(self) -> None:
        global _active
        with _lock:
            if _active is not self:
                return
            for api in ("backward", "grad"):
                original = _originals.pop(api)
                # Restore only while our wrapper is still the one in place: a tool that
                # wrapped it after us keeps its wrapper (ours under it then passes through).
                if getattr(getattr(torch.autograd, api), "__autograd_doctor__", False):
                    setattr(torch.autograd, api, original)
            for handle in self._handles:
                handle.remove()
            self._handles = []
            _active = None

    # -- events ----------------------------------------------------------------------------

    def sequence_now(self) -> int:
        """The autograd sequence counter of this thread: orders graph nodes against events."""
        with torch.enable_grad():
            node = self._probe.view_as(self._probe).grad_fn
        return int(node._sequence_nr()) if node is not None else -1

    def begin(self, api: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> BackwardRecord:
        tensors, retain, create = _parse_call(api, args, kwargs)
        retained = bool(retain if retain is not None else create)
        frames = user_frames(sys._getframe(3))
        bindings, structures = snapshot(frames)
        roots = tuple(roots_of(tensors))
        order, number = self.ledger.numbers()
        record = BackwardRecord(
            order=order,
            number=number,
            api=api,
            frames=tuple(frame_info(f) for f in frames),
            bindings=bindings,
            structures=structures,
            retained=retained,
            higher_order=bool(create),
            roots=roots,
            root_is_leaf=_is_leaf_call(tensors),
            thread=threading.get_ident(),
            steps_before=self.ledger.steps,
            # The counter itself, not the loss's number: a second loss built after the first
            # but before its backward must count as made before this call.
            extra={"sequence": self.sequence_now(),
                   "lists": list_lengths(frames) if will_check(number) else {},
                   "tensors": _tensor_ids(tensors)},
        )
        del frames
        self.ledger.add_backward(record)
        return record

    def end(self, record: BackwardRecord, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if record.retained:
            record.roots = ()  # a kept graph's buffers must not outlive the user's own refs
        if self.on_backward is not None:
            tensors, _, _ = _parse_call(record.api, args, kwargs)
            self.on_backward(self, record, tensors)

    def fail(self, exc: BaseException, record: BackwardRecord | None,
             frames: list[FrameType]) -> None:
        if getattr(exc, SEEN_ATTRIBUTE, False):
            return  # a nested backward already handed it on
        if record is not None:
            record.failed = True
        records, steps = self.ledger.snapshot()
        failure = Failure(exc, record, frames, records, steps, threading.get_ident())
        try:
            setattr(exc, SEEN_ATTRIBUTE, True)
            self.on_failure(failure)
        finally:
            failure.frames.clear()  # frames hold the user's tensors; never keep them

    def _before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        if self.on_step is not None:
            listener = self.on_step
            self.boundary.guard("optimizer step hook", lambda: listener(self, optimizer))

    def _after_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        def record() -> None:
            frames = user_frames(sys._getframe(3), limit=1)
            site = frame_info(frames[0]) if frames else None
            self.ledger.add_step(optimizer, site, self.sequence_now(), threading.get_ident())

        self.boundary.guard("optimizer step record", record)


def _wrap(original: Callable[..., Any], api: str) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        capture = _active
        if capture is None or _called_by_torch(sys._getframe(1)):
            return original(*args, **kwargs)
        guard = capture.boundary.guard
        record = guard(f"recording a {api} call", lambda: capture.begin(api, args, kwargs))
        try:
            result = original(*args, **kwargs)
        except RuntimeError as exc:
            frames = user_frames(sys._getframe(1))
            guard("handling the failure", functools.partial(capture.fail, exc, record, frames))
            frames.clear()  # the traceback keeps this frame: it must not keep the user's
            raise
        if record is not None:
            guard(f"after a {api} call", lambda: capture.end(record, args, kwargs))
        return result

    wrapper.__autograd_doctor__ = True  # type: ignore[attr-defined]
    return wrapper


_TENSOR_METHODS = os.path.join("torch", "_tensor.py")


def _called_by_torch(frame: FrameType | None) -> bool:
    """Calls torch makes itself (torch.compile tracing, reentrant checkpointing,
    autograd.functional) are not the user's steps: leave them out of the record; nor is the
    call a replay's tracer passes on, the user's own call having been recorded already.
    `loss.backward()` reaches us through torch/_tensor.py, which still counts as the user's."""
    if frame is None:
        return False
    name = frame.f_code.co_filename
    if name.endswith(_TENSOR_METHODS):
        return False
    return is_own_file(name) or (not is_user_file(name) and name.startswith(TORCH_DIR))


def _parse_call(api: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(tensors, retain_graph, create_graph) from a backward(...) or grad(...) call."""
    names: tuple[str, ...]
    if api == "backward":
        # backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, ...)
        names = ("tensors", "grad_tensors", "retain_graph", "create_graph")
    else:
        # grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, ...)
        names = ("outputs", "inputs", "grad_outputs", "retain_graph", "create_graph")
    values = dict(zip(names, args))
    values.update(kwargs)
    return values.get(names[0]), values.get("retain_graph"), values.get("create_graph", False)


def _tensor_ids(tensors: Any) -> tuple[int, ...]:
    """Which tensors a call was made on (a replay follows a loss's lineage back from them)."""
    items = tensors if isinstance(tensors, (tuple, list)) else (tensors,)
    return tuple(id(t) for t in items if isinstance(t, torch.Tensor))


def _is_leaf_call(tensors: Any) -> bool:
    items = tensors if isinstance(tensors, (tuple, list)) else (tensors,)
    return any(isinstance(t, torch.Tensor) and t.grad_fn is None and t.requires_grad
               for t in items)


def is_installed() -> bool:
    return _active is not None


def originals_restored() -> bool:
    """True when torch's entry points are the ones torch shipped (used by the test suite)."""
    return not getattr(torch.autograd.backward, "__autograd_doctor__", False) and not getattr(
        torch.autograd.grad, "__autograd_doctor__", False
    )
