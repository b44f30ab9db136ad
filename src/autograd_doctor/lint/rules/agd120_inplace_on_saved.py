"""A tensor that an earlier op saved for backward is modified in place before backward.

What it finds: a value produced by an op that keeps its result for backward (`exp`,
`sigmoid`, `tanh`, `softmax`, `relu`, `sqrt`), or read by an op that keeps its input (`*`,
`/`, `@`, `**`, `log`, `norm`, a layer), is then written in place (`x += y`, `x[mask] = 0`,
`x.clamp_(...)`, `x.masked_fill_(...)`) in the same function, before the graph is used.

Why it breaks training: backward needs the saved value as it was; the in-place write bumps
its version and PyTorch raises "one of the variables needed for gradient computation has
been modified by an inplace operation".

The fix: write out of place (`x = x + y`, `x = x.clamp(...)`, `x = x.masked_fill(...)`).
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint import saving
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD120"
NEEDS = ("_(", "+=", "-=", "*=", "/=", "] =")  # words a file must contain for the rule to read it
NAME = "inplace-write-on-saved-tensor"
ERROR = "inplace-modified"
CATEGORY = "inplace-op"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    probs = torch.softmax(model(torch.randn(8, 4)), dim=-1)
    probs[:, 0] = 0.0
    loss = -probs.log().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        out = torch.relu(self.fc(x))
        out += x
        return out
''')
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    probs = torch.softmax(model(torch.randn(8, 4)), dim=-1)
    probs = probs.masked_fill(torch.arange(3) == 0, 0.0)
    loss = -probs.clamp_min(1e-6).log().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        out = self.fc(x)
        out.relu_()
        out += x
        return out
''')

def check(facts: f.FileFacts) -> Check:
    for scope in f.scopes(facts.tree):
        body = f.body_statements(scope)
        for write in body:
            found = saving.written(write)
            if found is None or f.under_no_grad(scope, write) and not any(
                    b.call.lineno > write.lineno for b in f.backwards(scope)):
                # Under no_grad the write still bumps the version: a fault when this
                # function backwards the saved graph afterwards (a metric clamp between
                # the loss and its backward).
                continue
            name, node = found
            saver = saving.saved_by(facts, scope, body, write, name)
            if saver is None:
                continue
            yield Hit(write, f"`{name}` is modified in place here, but line {saver.lineno} "
                      f"saved it for backward: backward fails (modified by an inplace "
                      f"operation). Write it out of place.", name,
                      Suggestion("out-of-place", f"compute {name} out of place",
                                 _fix(write, name, node)))


def _fix(write: ast.stmt, name: str, node: ast.AST) -> tuple[Edit, ...]:
    if isinstance(write, ast.AugAssign):
        op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}.get(type(write.op))
        if op:
            return (Edit("replace-statement", write,
                         f"{name} = {name} {op} {reading.text(write.value)}"),)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            saving.OUT_OF_PLACE.get(node.func.attr) and isinstance(write, ast.Expr) \
            and write.value is node:
        out = saving.OUT_OF_PLACE[node.func.attr]
        args = ", ".join([reading.text(a) for a in node.args]
                         + [reading.text(k) for k in node.keywords])
        return (Edit("replace-statement", write, f"{name} = {name}.{out}({args})"),)
    return ()
