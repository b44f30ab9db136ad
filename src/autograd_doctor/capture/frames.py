"""Which frames are the user's, and what they hold when a backward call starts."""

from __future__ import annotations

import collections
import gc
import itertools
import sys
from types import FrameType, FunctionType, GeneratorType
from typing import Any

import torch

from autograd_doctor.graph.names import Binding, scan, structure, user_object
from autograd_doctor.graph.objects import resolve
from autograd_doctor.source.files import TORCH_DIR, is_own_file, is_project_file, is_user_file
from autograd_doctor.source.places import FrameInfo

__all__ = ["TORCH_DIR", "is_own_file", "is_project_file", "is_user_file", "frame_info",
           "user_frames", "suspended_frames",
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


def suspended_frames() -> list[FrameType]:
    """Frames of the user's generators paused at a `yield` (a data feeder that keeps a
    hidden state between batches): on no stack, so read after a failure only (this walks
    every object the collector tracks)."""
    return [g.gi_frame for g in gc.get_objects() if type(g) is GeneratorType
            and g.gi_frame is not None and not g.gi_running
            and is_user_file(g.gi_code.co_filename)]


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


def snapshot(frames: list[FrameType], deep: bool = False) -> Snapshot:
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
        for b in scan(scope, kind, deep=deep):
            bindings.append((i, b))
            if (i, b.root) in structures:
                continue
            if "." not in b.root:
                structures[(i, b.root)] = structure(scope.get(b.root))
            elif b.expression != b.root:  # an element of a container held on an object
                structures[(i, b.root)] = structure(resolve(b.root, [scope]))
    return tuple(bindings), structures


_KEPT = (list, collections.deque, dict, collections.defaultdict, collections.OrderedDict)
MAX_HELD = 16  # objects of a list looked into (a list of callbacks, not a dataset)
# Steps from a frame's locals to a list looked at: `self.callbacks[1].pairs` is three.
LIST_DEPTH = 3


def list_lengths(frames: list[FrameType]) -> dict[tuple[int, str],
                                                  tuple[int, Any, str, int]]:
    """Sizes of the lists, deques and dicts (in locals, on `self`, or on an object of the
    user's own classes held there: `self.history.losses`) whose newest entry holds a tensor
    with history, directly or in a record (a tuple, a dataclass): one that grows every step
    keeps every step's graph alive. Each with its size, the graph node of one entry (where a
    replay can tell the entry was made) and, for a tuple entry, which of its parts carry
    history (`(T, ?)`: the first); and the id of what holds it (the dict of a
    `defaultdict(list)` of histories, whatever name reaches it: one container, one cause)."""
    out: dict[tuple[int, str], tuple[int, Any, str, int]] = {}
    held_by: dict[str, int] = {}
    for i, frame in enumerate(frames):
        items = list(frame.f_locals.items())
        seen: set[int] = set()
        for depth in range(LIST_DEPTH + 1):
            deeper: list[tuple[str, Any]] = []
            for name, value in items:
                if id(value) in seen or name.startswith("__"):
                    continue
                seen.add(id(value))
                if type(value) in _KEPT and value:
                    node = next((n for v in _some(value) if (n := _history(v)) is not None),
                                None)
                    if node is not None:
                        out[(i, name)] = (len(value), node, _parts(value),
                                          held_by.get(name, id(value)))
                    elif depth < LIST_DEPTH and type(value) is list and len(value) <= MAX_HELD:
                        # A list of the user's objects (`callbacks=[LossHistory(), ...]`):
                        # what each of them keeps.
                        deeper += [(f"{name}[{k}]", v) for k, v in enumerate(value)
                                   if user_object(v)]
                    elif depth < LIST_DEPTH and isinstance(value, dict) and len(value) <= MAX_HELD:
                        # Lists kept by name (`outputs = defaultdict(list)`): each of them.
                        entries = [(f"{name}[{k!r}]", v) for k, v in list(value.items())
                                   if type(v) in (list, collections.deque)]
                        held_by.update((entry, id(value)) for entry, _ in entries)
                        deeper += entries
                elif depth < LIST_DEPTH and (name == "self" or user_object(value)):
                    prefix = "self" if name == "self" else name
                    deeper += [(f"{prefix}.{k}", v) for k, v in
                               list(getattr(value, "__dict__", {}).items())]
                elif depth < LIST_DEPTH and isinstance(value, FunctionType) and value.__closure__ \
                        and is_user_file(value.__code__.co_filename):
                    # A closure's own list (`track` appending to `student_probs` made by a
                    # `make_tracker()`), under the name its code gives it.
                    deeper += [(n, c.cell_contents) for n, c in zip(
                        value.__code__.co_freevars, value.__closure__) if _filled(c)]
            items = deeper
    return out


def _filled(cell: Any) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:  # a cell not yet assigned
        return False
    return True


def _some(container: Any) -> list[Any]:
    """The newest entries and a few spread over the rest (an entry updated in place, like a
    priority, may sit anywhere): at most 8 looks, whatever the size (a dict's newest and
    oldest, without copying its values)."""
    if isinstance(container, dict):
        values = container.values()
        return [*itertools.islice(reversed(values), 4), *itertools.islice(values, 4)]
    n = len(container)
    picks = {n - 1, n - 2, 0, n // 2, n // 4, 3 * n // 4, n - 3, 1}
    return [container[k] for k in sorted(picks, reverse=True) if 0 <= k < n]


def _parts(container: Any) -> str:
    """`(T, ?)` for a list whose newest entry is a tuple with history in its first part."""
    newest = container[-1] if isinstance(container, (list, collections.deque)) else None
    if type(newest) is not tuple or len(newest) > 8:
        return "T"
    return "(" + ", ".join("T" if _history(v) is not None else "?" for v in newest) + ")"


def _history(value: Any, depth: int = 2) -> Any:
    """The grad_fn of a tensor with history, directly or in a record (a tuple, a dataclass,
    a small dict); None when there is none."""
    if isinstance(value, torch.Tensor):
        return value.grad_fn
    if depth <= 0:
        return None
    if isinstance(value, tuple):
        inner: list[Any] = list(value[:8])
    elif isinstance(value, dict) and len(value) <= 8:
        inner = list(value.values())
    elif hasattr(value, "__dataclass_fields__"):
        inner = [getattr(value, f, None) for f in list(value.__dataclass_fields__)[:8]]
    else:
        return None
    return next((n for v in inner if (n := _history(v, depth - 1)) is not None), None)
