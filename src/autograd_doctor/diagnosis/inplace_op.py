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

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.inplace_common import describe_saved, inplace_finding
from autograd_doctor.diagnosis.remedy import Diagnosis, Insert, Remedy, Replace, replace_node
from autograd_doctor.diagnosis.versions import Inplace, Write
from autograd_doctor.graph import source

ERROR = "inplace-modified"
CATEGORY = "inplace-op"
CULPRIT = "h"

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


def match(ev: Inplace) -> Diagnosis | None:
    if ev.step is not None or not ev.writes or ev.writes[0].how not in (
            "augassign", "method", "subscript"):
        return None
    write = ev.writes[0]
    where = f"{places.user_path(write.file)}:{write.stmt.lineno}"
    message = (
        f"{describe_saved(ev)} was saved for backward by an earlier operation, then "
        f"overwritten in place at {where} (`{source.line_text(write.file, write.stmt.lineno)}`)"
        f". Backward needs the value the forward used. Use the out-of-place form so the "
        f"saved value stays intact. Writing through `.data` instead would hide the error "
        f"and give wrong gradients."
    )
    kind = "attribute" if write.target.startswith("self.") else "local"
    return inplace_finding(ev, CATEGORY, message, ev.name or write.target, kind,
                           (write.file, write.stmt.lineno), _out_of_place(write))


def _out_of_place(write: Write) -> Remedy | None:
    stmt, file = write.stmt, write.file
    ops: tuple[Insert | Replace, ...] = ()
    if isinstance(stmt, ast.AugAssign) and type(stmt.op) in _OPS:
        target = source.segment(file, stmt.target)
        value = source.segment(file, stmt.value)
        if not isinstance(stmt.value, (ast.Name, ast.Attribute, ast.Call, ast.Subscript,
                                       ast.Constant)):
            value = f"({value})"
        text = f"{target} = {target} {_OPS[type(stmt.op)]} {value}"
        ops = (Replace(file, stmt.lineno, stmt.col_offset, stmt.end_lineno or stmt.lineno,
                       stmt.end_col_offset or 0, text),)
    elif write.how == "method":
        call = next(n for n in ast.walk(stmt) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr.endswith("_")
                    and source.text(n.func.value) == write.target)
        func = call.func
        assert isinstance(func, ast.Attribute)
        plain = f"{source.segment(file, func.value)}.{func.attr[:-1]}"
        args = source.segment(file, call)[len(source.segment(file, func)):]
        new_call = plain + args
        if isinstance(stmt, ast.Expr) and stmt.value is call:
            new_call = f"{write.target} = {new_call}"
        ops = (replace_node(file, call, new_call),)
    elif write.how == "subscript" and isinstance(stmt, ast.Assign):
        written = stmt.targets[0]
        if isinstance(written, ast.Subscript) and isinstance(written.slice, (ast.Name,
                                                                            ast.Compare)) \
                and isinstance(stmt.value, ast.Constant):
            mask = source.segment(file, written.slice)
            text = (f"{write.target} = {write.target}.masked_fill({mask}, "
                    f"{source.segment(file, stmt.value)})")
            ops = (Replace(file, stmt.lineno, stmt.col_offset, stmt.end_lineno or stmt.lineno,
                           stmt.end_col_offset or 0, text),)
        else:
            ops = (Insert(file, stmt.lineno, f"{write.target} = {write.target}.clone()",
                          source.indent_of(file, stmt.lineno)),)
    if not ops:
        return None
    return Remedy(
        strategy="out-of-place",
        description=f"write {write.target} out of place, keeping the saved value intact",
        file=file,
        line=stmt.lineno,
        operations=ops,
    )
