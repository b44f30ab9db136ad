"""Which frames are the user's, and what they hold when a backward call starts."""

from __future__ import annotations

import collections
import sys
from types import FrameType
from typing import Any

import torch

from autograd_doctor.graph.names import Binding, scan, structure
from autograd_doctor.graph.objects import resolve
from autograd_doctor.source.files import TORCH_DIR, is_own_file, is_project_file, is_user_file
from autograd_doctor.source.places import FrameInfo

__all__ = ["TORCH_DIR", "is_own_file", "is_project_file", "is_user_file", "frame_info",
           "user_frames",
           "scopes_of", "live_scopes", "snapshot", "list_lengths"]

# Frames looked at per backward call: enough for train() -> Trainer.fit() -> step() -> helper.
MAX_FRAMES = 8


def user_frames(start: FrameType | None, limit: int = MAX_FRAMES) -> list[FrameType]:
    """User frames from `start` outwards, innermost first. The user's program ends where one
    of our own frames holds it (the runner that executes a script): what called that is not
    the program being diagnosed."""
    out: list[FrameType] = []
    frame = start
    while frame is not None and len(out) < limit:
        name = frame.f_code.co_filename
        if is_user_file(name):
            out.append(frame)
        elif out and is_own_file(name):
            break
        frame = frame.f_back
    return out


def frame_info(frame: FrameType) -> FrameInfo:
    code = frame.f_code
    return FrameInfo(code.co_filename, frame.f_lineno or 0, code.co_name, code.co_firstlineno)


def scopes_of(frames: list[FrameType]) -> list[dict[str, Any]]:
    """Each frame's locals then its globals (each scope once), innermost frame first: the
    order in which the innermost frame's code would look a name up."""
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for scope in (s for f in frames for s in (f.f_locals, f.f_globals)):
        if id(scope) not in seen:
            seen.add(id(scope))
            out.append(scope)
    return out


def live_scopes() -> list[dict[str, Any]]:
    """The scopes of the user's frames on the stack now (see scopes_of)."""
    return scopes_of(user_frames(sys._getframe(1)))


Snapshot = tuple[tuple[tuple[int, Binding], ...], dict[tuple[int, str], str]]


def snapshot(frames: list[FrameType]) -> Snapshot:
    """Named tensors with history in these frames (and the globals they see), plus a
    structure sketch of each name that holds one (for choosing how to detach it)."""
    bindings: list[tuple[int, Binding]] = []
    structures: dict[tuple[int, str], str] = {}
    scanned: set[int] = set()
    # Locals first, so a script's module-level loop variables count as its locals; globals
    # seen only from inside functions are the `global` kind.
    passes = [(i, f.f_locals, "local") for i, f in enumerate(frames)]
    passes += [(i, f.f_globals, "global") for i, f in enumerate(frames)]
    for i, scope, kind in passes:
        if id(scope) in scanned:
            continue
        scanned.add(id(scope))
        for b in scan(scope, kind):
            bindings.append((i, b))
            if (i, b.root) in structures:
                continue
            if "." not in b.root:
                structures[(i, b.root)] = structure(scope.get(b.root))
            elif b.expression != b.root:  # an element of a container held on an object
                structures[(i, b.root)] = structure(resolve(b.root, [scope]))
    return tuple(bindings), structures


def list_lengths(frames: list[FrameType]) -> dict[tuple[int, str], int]:
    """Lengths of the lists and deques (in locals, or on `self`) whose last element holds a
    tensor with history: one that grows every step keeps every step's graph alive."""
    out: dict[tuple[int, str], int] = {}
    for i, frame in enumerate(frames):
        scope = frame.f_locals
        items = list(scope.items())
        owner = scope.get("self")
        if owner is not None and hasattr(owner, "__dict__"):
            items += [(f"self.{k}", v) for k, v in list(vars(owner).items())]
        for name, value in items:
            if type(value) in (list, collections.deque) and value:
                last = value[-1]
                if isinstance(last, tuple) and last:
                    last = last[0]  # (tensor, label) pairs
                if isinstance(last, torch.Tensor) and last.grad_fn is not None:
                    out[(i, name)] = len(value)
    return out
