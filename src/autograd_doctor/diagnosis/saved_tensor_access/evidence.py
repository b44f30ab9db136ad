"""Evidence for saved tensors read after their graph was freed, outside any backward call:
`loss.grad_fn._saved_self`, `ctx.saved_tensors` on a stashed custom-Function context.

The error reaches the top of the program from an attribute read, so the evidence comes
from the exception's traceback (its frames are still alive) and the ledger of backward calls.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from types import FrameType
from typing import Any

from autograd_doctor.capture.frames import frame_info, is_user_file
from autograd_doctor.capture.hooks import Failure
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.graph import objects
from autograd_doctor.graph.walk import Node, is_node, walk
from autograd_doctor.source import patterns, reading
from autograd_doctor.source.places import FrameInfo


@dataclass
class Access:
    failure: Failure
    frame: FrameInfo  # where the saved tensor was read
    expression: str  # `loss.grad_fn._saved_self`
    node: Node | None  # the node whose saved tensors were read
    freeing: BackwardRecord | None
    frames: list[FrameInfo]  # the traceback's user frames, outermost first


def gather(failure: Failure) -> Access | None:
    raising = _raising_frame(failure)
    frames = list(failure.frames)  # innermost first
    if raising is not None and raising not in frames:
        frames.insert(0, raising)
    for frame in frames:
        found = _read_at(frame)
        if found is None:
            continue
        expression, owner = found
        node = evaluate(owner, frame)
        infos = [frame_info(f) for f in reversed(frames)]
        freeing = _freeing(failure, node) if is_node(node) else None
        return Access(failure, frame_info(frame), expression, node if is_node(node) else None,
                      freeing, infos)
    return None


def read_in_backward(failure: Failure) -> bool:
    """Was the error raised by the user's own read of a graph node's saved tensor while a
    backward call ran (a backward hook reading `self.out.grad_fn._saved_input`), not by the
    engine? A custom Function's `ctx.saved_tensors` in its backward is the engine's
    business: that is its graph backwarded twice."""
    frame = _raising_frame(failure)
    found = _read_at(frame) if frame is not None else None
    return found is not None and reading.text(found[1]) != "ctx"


def _raising_frame(failure: Failure) -> FrameType | None:
    """The user's frame the error was raised in, when it was (a hook the backward call ran
    has no live frame at the call; its traceback still holds it)."""
    tb = failure.exception.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame if tb is not None and is_user_file(tb.tb_frame.f_code.co_filename) \
        else None


def _read_at(frame: FrameType) -> tuple[str, ast.expr] | None:
    stmt = frame_info(frame).statement
    if stmt is None:
        return None
    file = frame.f_code.co_filename
    for node in ast.walk(stmt):
        if patterns.is_saved_read(node):
            assert isinstance(node, ast.Attribute)
            return reading.segment(file, node), node.value
    # A saved attribute read by name (`getattr(fn, name)` in a graph walker): the error
    # already says a saved tensor was read, so a getattr on a graph node is that read.
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and reading.text(node.func) == "getattr" \
                and len(node.args) >= 2 and is_node(evaluate(node.args[0], frame)):
            return reading.segment(file, node), node.args[0]
    return None


def evaluate(expr: ast.expr, frame: FrameType) -> Any:
    """The value of a name, attribute or constant subscript as the frame sees it."""
    return objects.evaluate(expr, [frame.f_locals, frame.f_globals])


def _freeing(failure: Failure, node: Node) -> BackwardRecord | None:
    for record in sorted(failure.own_records(), key=lambda r: r.order):
        if record.roots and not record.retained and node in set(walk(record.roots)):
            return record
    return None
