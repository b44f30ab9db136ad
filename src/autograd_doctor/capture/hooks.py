"""The only code that changes torch's global state: wrappers around `torch.autograd.backward`
and `torch.autograd.grad`, and the global optimizer-step hooks. `uninstall()` restores all.

Nothing here may raise into the user's program: our own failures are kept in `problems`
and the user's exception always propagates unchanged (with notes added by the listener).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import torch
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)

from autograd_doctor.capture.frames import (
    TORCH_DIR,
    is_user_file,
    list_lengths,
    snapshot,
    user_frames,
)
from autograd_doctor.capture.ledger import (
    BackwardRecord,
    FrameInfo,
    Ledger,
    StepRecord,
)
from autograd_doctor.graph.walk import roots_of

# Substrings of PyTorch's messages (stable from 1.x to 2.13) -> what happened.
ERROR_PATTERNS = (
    ("Trying to backward through the graph a second time", "backward-twice"),
    ("modified by an inplace operation", "inplace-modified"),
    ("does not require grad and does not have a grad_fn", "no-grad-fn"),
)
SEEN_ATTRIBUTE = "_autograd_doctor_seen"


def classify(exc: BaseException) -> str | None:
    if not isinstance(exc, RuntimeError):
        return None
    text = str(exc)
    for pattern, error in ERROR_PATTERNS:
        if pattern in text:
            return error
    return None


@dataclass
class Failure:
    """A known autograd error, caught while the user's frames are still alive."""

    error: str
    exception: BaseException
    record: BackwardRecord | None  # the failing call; None when it failed outside backward
    frames: list[FrameType]  # live user frames at the failure, innermost first
    records: tuple[BackwardRecord, ...]
    steps: tuple[StepRecord, ...]
    capture: Capture | None = field(default=None, repr=False)

    def scopes(self) -> list[dict[str, Any]]:
        """The live frames' locals, then their globals (each once), innermost first."""
        out: list[dict[str, Any]] = []
        for frame in self.frames:
            out.append(frame.f_locals)
            if frame.f_globals is not frame.f_locals:
                out.append(frame.f_globals)
        return out


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
    ) -> None:
        self.on_failure = on_failure
        self.on_backward = on_backward
        self.on_step = on_step
        self.ledger = Ledger()
        self.problems: list[str] = []
        self._handles: list[Any] = []
        self._probe = torch.zeros((), requires_grad=True)

    # -- installation -------------------------------------------------------------------

    def install(self) -> None:
        global _active
        with _lock:
            if _active is not None:
                raise RuntimeError("autograd-doctor is already installed")
            _originals["backward"] = torch.autograd.backward
            _originals["grad"] = torch.autograd.grad
            torch.autograd.backward = _wrap(_originals["backward"], "backward")
            torch.autograd.grad = _wrap(_originals["grad"], "grad")
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
            torch.autograd.backward = _originals.pop("backward")
            torch.autograd.grad = _originals.pop("grad")
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
        frames = user_frames(sys._getframe(2))
        bindings, structures = snapshot(frames)
        roots = tuple(roots_of(tensors))
        record = BackwardRecord(
            order=self.ledger.next_order(),
            number=self.ledger.new_backward_number(),
            api=api,
            frames=tuple(FrameInfo.of(f) for f in frames),
            bindings=bindings,
            structures=structures,
            retained=retained,
            roots=roots,
            root_is_leaf=_is_leaf_call(tensors),
            thread=threading.get_ident(),
            steps_before=self.ledger.steps,
            # The counter itself, not the loss's number: a second loss built after the first
            # but before its backward must count as made before this call.
            extra={"sequence": self.sequence_now(), "lists": list_lengths(frames)},
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

    def fail(self, exc: BaseException, record: BackwardRecord | None, depth: int) -> None:
        if getattr(exc, SEEN_ATTRIBUTE, False):
            return  # a nested backward already diagnosed it
        error = classify(exc)
        if error is None:
            return
        if record is not None:
            record.failed = True
        records, steps = self.ledger.snapshot()
        failure = Failure(error, exc, record, user_frames(sys._getframe(depth + 1)), records,
                          steps, self)
        try:
            setattr(exc, SEEN_ATTRIBUTE, True)
            self.on_failure(failure)
        finally:
            failure.frames.clear()  # frames hold the user's tensors; never keep them

    def _before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        if self.on_step is not None:
            guarded(self, "step", lambda: self.on_step(self, optimizer))  # type: ignore[misc]

    def _after_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        def record() -> None:
            frames = user_frames(sys._getframe(3), limit=1)
            site = FrameInfo.of(frames[0]) if frames else None
            self.ledger.add_step(optimizer, site, self.sequence_now())

        guarded(self, "step", record)


def guarded(capture: Capture, what: str, action: Callable[[], Any]) -> Any:
    """Run our own code at a boundary with the user's program: a bug of ours becomes a
    recorded problem, never an exception in their training loop."""
    try:
        return action()
    except Exception as exc:  # noqa: BLE001 - this is the one boundary
        capture.problems.append(f"{what}: {type(exc).__name__}: {exc}")
        return None


def _wrap(original: Callable[..., Any], api: str) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        capture = _active
        if capture is None or _called_by_torch(sys._getframe(1)):
            return original(*args, **kwargs)
        record = guarded(capture, api, lambda: capture.begin(api, args, kwargs))
        try:
            result = original(*args, **kwargs)
        except RuntimeError as exc:
            capture.fail(exc, record, depth=1)
            raise
        if record is not None:
            guarded(capture, api, lambda: capture.end(record, args, kwargs))
        return result

    wrapper.__autograd_doctor__ = True  # type: ignore[attr-defined]
    return wrapper


_TENSOR_METHODS = os.path.join("torch", "_tensor.py")


def _called_by_torch(frame: FrameType | None) -> bool:
    """Calls torch makes itself (torch.compile tracing, reentrant checkpointing,
    autograd.functional) are not the user's steps: leave them out of the record.
    `loss.backward()` reaches us through torch/_tensor.py, which still counts as the user's."""
    if frame is None:
        return False
    name = frame.f_code.co_filename
    if name.endswith(_TENSOR_METHODS):
        return False
    return not is_user_file(name) and name.startswith(TORCH_DIR)


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
