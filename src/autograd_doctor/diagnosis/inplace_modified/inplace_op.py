"""In-place op: a tensor that backward needs was overwritten by an in-place operation
(`x += y`, `x[mask] = 0`, `x.relu_()`, `x.mul_(s)`) after an op saved it.

Many ops save their inputs or outputs for backward (sigmoid and tanh save their output,
multiplication saves both inputs). Writing into such a tensor afterwards changes what
backward would read, so PyTorch refuses. Writes through `.data` are not caught and silently
give wrong gradients, which is worse.

Use the out-of-place form: `x = x + y`, `x = x.masked_fill(mask, 0)`, `x = x.relu()`; or
clone before writing (`x = x.clone()`).
"""

from __future__ import annotations

import ast
import re

import torch

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.inplace_modified.evidence import (
    STATEMENT,
    UNBOUND,
    Inplace,
    Write,
    claim,
    describe_saved,
)
from autograd_doctor.edits.operations import Insert, Move, Remedy, Replace, replace_node
from autograd_doctor.graph.names import steps
from autograd_doctor.source import places, reading

CATEGORY = "inplace-op"
CULPRIT = "h"
CULPRIT_LINE = 15  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(4, 8), nn.Linear(8, 1)
        self.shift = nn.Parameter(torch.zeros(8))

    def forward(self, x):
        h = torch.sigmoid(self.fc1(x))
        h += self.shift
        return self.fc2(h)


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("h += self.shift", "h = h + self.shift")

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}


def match(ev: Inplace) -> Claim | None:
    if ev.writer_kind != STATEMENT:
        return None
    write = ev.writes[0]
    where = f"{places.user_path(write.file)}:{write.stmt.lineno}"
    # PyTorch's message gives the modified tensor's shape: a named tensor of another shape
    # is not it, while the write the replay saw at this statement is.
    misnamed = ev.shape is not None and ev.tensor is not None and tuple(
        ev.tensor.shape) != ev.shape and ev.traced is not None and ev.traced.shape == ev.shape
    saved = f"`{write.target}` (shape {list(ev.shape or ())})" if misnamed else \
        describe_saved(ev)
    why = (
        f"{saved} was saved for backward by an earlier operation, then "
        f"overwritten in place at {where} "
        f"(`{reading.line_text(write.file, write.stmt.lineno)}`). Backward needs the value "
        f"the forward used."
    )
    hint = ("Use the out-of-place form so the saved value stays intact. Writing through "
            "`.data` instead would hide the error and give wrong gradients.")
    parameter = ev.kind == "parameter" and not misnamed
    kind = "parameter" if parameter else places.kind_of(write.target)
    # A parameter cannot be rebound to a computed tensor (`w = w / n` raises on a module's
    # Parameter): an out-of-place rewrite is no fix for it.
    remedy = _write_before_read(write) if parameter else _out_of_place(write)
    name = write.target if misnamed else ev.name or write.target
    if steps(name)[-1:] == steps(write.target)[-1:]:
        name = write.target  # `self.scale` where the head writes it, not the loop's path to it
    return claim(ev, CATEGORY, why, hint, name, kind, (write.file, write.stmt.lineno), remedy)


def _write_before_read(write: Write) -> Remedy | None:
    """A parameter updated in place in the function that used it (a forward clamping its
    learnable scale into range after computing with it): the update moves before that
    function's first use of it, so the graph saves the value it will keep."""
    file, stmt = write.file, write.stmt
    tree = reading.parse(file)
    function = reading.enclosing_function(tree, stmt) if tree is not None else None
    unit = reading.top_statement(function.body, stmt) if function is not None else None
    if function is None or unit is None:
        return None
    used = [reading.top_statement(function.body, r) for r in reading.reads(function, write.target)
            if r.lineno < unit.lineno]
    first = next((u for u in used if u is not None), None)
    if first is None or first is unit:
        return None
    return Remedy("write-before-read", f"update {write.target} before it is first used",
                  file, first.lineno,
                  (Move(file, unit.lineno, unit.end_lineno or unit.lineno, first.lineno,
                        reading.indent_of(file, first.lineno)),))


def _out_of_place(write: Write) -> Remedy | None:
    stmt, file = write.stmt, write.file
    ops: tuple[Insert | Replace, ...] = ()
    if isinstance(stmt, ast.AugAssign) and type(stmt.op) in _OPS:
        target = reading.segment(file, stmt.target)
        value = reading.segment(file, stmt.value)
        if not isinstance(stmt.value, (ast.Name, ast.Attribute, ast.Call, ast.Subscript,
                                       ast.Constant)):
            value = f"({value})"
        text = f"{target} {_OPS[type(stmt.op)]} {value}"
        # `x[i] = x[i] * v` would still write into `x`, the tensor the graph saved.
        ops = (_into_copy(write, target, text) if isinstance(stmt.target, ast.Subscript)
               else replace_node(file, stmt, f"{target} = {text}"),)
    elif write.how == "method":
        call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Attribute) and n.func.attr.endswith("_")
                     and write.target in (reading.text(n.func.value), reading.text(
                         n.args[0]) if n.args and reading.text(n.func.value) in UNBOUND
                         else None)), None)
        if call is None:
            return None
        func = call.func
        assert isinstance(func, ast.Attribute)
        if func.attr == "copy_" and _copy_into(stmt) is not None:
            # `x.copy_(v)` out of place is `x = v` (a module's buffer stays its buffer); the
            # block's other copies into the same object's state go the same way (a power
            # iteration updates `self.u` and `self.v` together).
            tree = reading.parse(file)
            block = (reading.block_of(tree, stmt) if tree is not None else None) or [stmt]
            owner = write.target.rsplit(".", 1)[0] + "." if "." in write.target else ""
            copies = [(s, c) for s in block if (c := _copy_into(s)) is not None and (
                s is stmt or owner and reading.text(_copied(c)).startswith(owner))]
            return Remedy("out-of-place", f"rebind {write.target} instead of copying into it",
                          file, stmt.lineno, tuple(replace_node(
                              file, s, f"{reading.segment(file, _copied(c))} = "
                                       f"{reading.segment(file, c.args[0])}")
                              for s, c in copies))
        if not hasattr(torch.Tensor, func.attr[:-1]) and isinstance(stmt, ast.Expr):
            # No out-of-place twin (`fill_diagonal_`): write into a copy, so the tensor the
            # graph saved keeps its value.
            ops = (Insert(file, stmt.lineno, f"{write.target} = {write.target}.clone()",
                          reading.indent_of(file, stmt.lineno)),)
        else:
            plain = f"{reading.segment(file, func.value)}.{func.attr[:-1]}"
            args = reading.segment(file, call)[len(reading.segment(file, func)):]
            new_call = plain + args
            if isinstance(stmt, ast.Expr) and stmt.value is call:
                new_call = f"{write.target} = {new_call}"
            ops = (replace_node(file, call, new_call),)
    elif write.how == "subscript" and isinstance(stmt, ast.Assign):
        written = stmt.targets[0]
        if isinstance(written, ast.Subscript) and isinstance(written.slice, (ast.Name,
                                                                            ast.Compare)) \
                and isinstance(stmt.value, ast.Constant):
            mask = reading.segment(file, written.slice)
            text = (f"{write.target} = {write.target}.masked_fill({mask}, "
                    f"{reading.segment(file, stmt.value)})")
            ops = (replace_node(file, stmt, text),)
        elif write.target in reading.names_in(stmt.value) and isinstance(written, ast.Subscript):
            # `traj[t + 1] = traj[t] + dt * f(traj[t])`: the row is computed from the tensor
            # it is written into.
            ops = (_into_copy(write, reading.segment(file, written),
                              reading.segment(file, stmt.value)),)
        else:
            ops = tuple(Insert(file, s.lineno, f"{target} = {target}.clone()",
                               reading.indent_of(file, s.lineno))
                        for s, target in _slice_writes(file, stmt, write.target))
    if not ops:
        return None
    return Remedy(
        strategy="out-of-place",
        description=f"write {write.target} out of place, keeping the saved value intact",
        file=file,
        line=stmt.lineno,
        operations=ops,
    )


def _into_copy(write: Write, written: str, value: str) -> Replace:
    """`written = value` as: the value first, then a fresh copy of the tensor to write it
    into, so the tensor the graph saved keeps its value."""
    file, stmt = write.file, write.stmt
    # A name that is Python whatever the tensor was reached by (`out["mask"]`: new_out_mask).
    new = "new_" + re.sub(r"\W+", "_", write.target.rsplit(".", 1)[-1]).strip("_")
    indent = reading.indent_of(file, stmt.lineno)
    return replace_node(file, stmt, "\n".join([
        f"{new} = {value}", f"{indent}{write.target} = {write.target}.clone()",
        f"{indent}{written} = {new}"]))


def _slice_writes(file: str, stmt: ast.Assign, target: str) -> list[tuple[ast.stmt, str]]:
    """The write, and the block's writes into the same slice of the same object's other
    buffers (a cache's keys and values filled at one position): one mistake, every site."""
    written = stmt.targets[0]
    assert isinstance(written, ast.Subscript)
    tree = reading.parse(file)
    block = (reading.block_of(tree, stmt) if tree is not None else None) or [stmt]
    owner = target.rsplit(".", 1)[0] + "." if "." in target else ""
    out: list[tuple[ast.stmt, str]] = []
    for other in block:
        into = other.targets[0] if isinstance(other, ast.Assign) and len(
            other.targets) == 1 else None
        if other is stmt:
            out.append((other, target))
        elif owner and isinstance(into, ast.Subscript) and ast.dump(into.slice) == ast.dump(
                written.slice) and (base := reading.text(into.value)).startswith(owner):
            out.append((other, base))
    return out


def _copy_into(stmt: ast.stmt) -> ast.Call | None:
    """`x.copy_(v)` as a statement of its own."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return call if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and \
        call.func.attr == "copy_" and len(call.args) == 1 else None


def _copied(call: ast.Call) -> ast.expr:
    assert isinstance(call.func, ast.Attribute)
    return call.func.value
