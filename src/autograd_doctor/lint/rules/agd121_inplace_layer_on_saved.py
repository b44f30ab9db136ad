"""A layer or function that writes in place (`inplace=True`) overwrites a tensor an earlier op
saved for backward.

What it finds: `nn.ReLU(inplace=True)` (or `nn.Dropout(..., inplace=True)`, `LeakyReLU`,
`F.dropout(x, ..., inplace=True)`) applied to the output of an op that keeps its result
for backward (`Sigmoid`, `Tanh`, `ReLU`, `Softmax`, `exp`) or to a tensor an earlier op
kept as its input: in an `nn.Sequential` right after such a layer, or called in `forward`.
Also an `nn.Embedding(..., max_norm=...)` whose weight the class uses as a tensor too
(its lookups renormalise the weight in place).

Why it breaks training: the in-place layer overwrites the saved tensor, and backward raises
"one of the variables needed for gradient computation has been modified by an inplace
operation".

The fix: `inplace=False` (the default) for that layer.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint import saving
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD121"
NEEDS = ("inplace", "max_norm")  # words a file must contain for the rule to read it
NAME = "inplace-layer-on-saved-tensor"
ERROR = "inplace-modified"
CATEGORY = "inplace-module"

BAD = ('''
import torch
import torch.nn as nn

gate = nn.Sequential(nn.Linear(8, 8), nn.Sigmoid(), nn.ReLU(inplace=True))
opt = torch.optim.SGD(gate.parameters(), lr=0.1)
for step in range(3):
    loss = gate(torch.randn(4, 8)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        h = torch.tanh(self.fc(x))
        h = F.dropout(h, 0.1, self.training, inplace=True)
        return h.sum()
''', '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(20, 8, max_norm=1.0)
        self.cell = nn.GRUCell(8, 8)

    def forward(self, tokens):
        h, logits = torch.zeros(2, 8), []
        for t in range(tokens.size(1)):
            h = self.cell(self.embed(tokens[:, t]), h)
            logits.append(F.linear(h, self.embed.weight))
        return torch.stack(logits, 1)
''')
GOOD = ('''
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(8, 8), nn.ReLU(inplace=True), nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    loss = net(torch.randn(4, 8)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)

_KEEP_RESULT = frozenset({"Sigmoid", "Tanh", "ReLU", "ReLU6", "Softmax", "ELU", "SELU",
                          "Hardtanh"})


def check(facts: f.FileFacts) -> Check:
    yield from _in_sequences(facts.tree)
    yield from _renormed_embeddings(facts.tree)
    built = _built_in_place(facts.tree)
    for scope in f.scopes(facts.tree):
        body = f.body_statements(scope)
        for stmt in body:
            for call in f.nodes_of(stmt):
                if not isinstance(call, ast.Call) or not call.args or f.under_no_grad(
                        scope, stmt):
                    continue
                func = reading.text(call.func)
                site = built.get(func)
                if site is None and not _inplace_keyword(call):
                    continue
                arg = call.args[0]
                name = reading.text(arg)
                if isinstance(arg, ast.Call) and saving.saves_result(arg):
                    saver: ast.stmt | None = stmt  # `act(torch.sigmoid(h))`, in one line
                elif isinstance(arg, (ast.Name, ast.Attribute)):
                    saver = saving.saved_by(facts, scope, body, stmt, name)
                else:
                    continue
                if saver is None:
                    continue
                where = site if site is not None else stmt
                yield Hit(where, f"`{func}` writes in place into `{name}` (line "
                          f"{stmt.lineno}), which line {saver.lineno} saved for backward: "
                          f"backward fails (modified by an inplace operation). Use "
                          f"inplace=False.", name, _fix(where))


def _renormed_embeddings(tree: ast.Module) -> Check:
    """`self.emb = nn.Embedding(..., max_norm=1.0)` whose `self.emb.weight` the class also
    uses as a tensor (a tied output layer, distances to every row): each lookup renormalises
    the weight in place, under the op that saved it."""
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for stmt in ast.walk(cls):
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
                    and reading.text(stmt.value.func).endswith("Embedding") and any(
                        k.arg == "max_norm" and not (isinstance(k.value, ast.Constant)
                                                     and k.value.value is None)
                        for k in stmt.value.keywords)):
                continue
            for target in stmt.targets:
                weight = reading.text(target) + ".weight"
                if any(isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
                       and reading.text(n) == weight for n in ast.walk(cls)):
                    yield Hit(stmt, f"`{reading.text(target)}` renormalises its weight in "
                              f"place on every lookup (max_norm), and `{weight}` is also used "
                              f"as a tensor in this class: a lookup after that use modifies "
                              f"what backward saved (modified by an inplace operation). Use "
                              f"`{weight}.clone()` there, or drop max_norm.",
                              reading.text(target),
                              Suggestion("clone-saved", "clone the weight where it is used "
                                         "as a tensor", ()))


def _inplace_keyword(call: ast.Call) -> bool:
    return any(k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value
               is True for k in call.keywords)


def _built_in_place(tree: ast.Module) -> dict[str, ast.stmt]:
    """`self.act = nn.ReLU(inplace=True)`: the layer's name and where it was built."""
    found: dict[str, ast.stmt] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                _inplace_keyword(node.value) and reading.text(node.value.func).startswith(
                ("nn.", "torch.nn.")):
            for target in node.targets:
                found[reading.text(target)] = node
    return found


def _in_sequences(tree: ast.Module) -> Check:
    """`nn.Sequential(..., nn.Sigmoid(), nn.ReLU(inplace=True))`: the in-place layer
    overwrites the output the layer before it kept for backward."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or reading.text(node.func) not in (
                "nn.Sequential", "torch.nn.Sequential"):
            continue
        for before, layer in zip(node.args, node.args[1:]):
            if isinstance(before, ast.Call) and isinstance(layer, ast.Call) and \
                    reading.text(before.func).rsplit(".", 1)[-1] in _KEEP_RESULT and \
                    _inplace_keyword(layer):
                yield Hit(layer, f"`{reading.text(layer)}` overwrites the output of "
                          f"`{reading.text(before)}`, which keeps it for backward: backward "
                          f"fails (modified by an inplace operation). Use inplace=False.",
                          reading.text(layer), _fix(layer))


def _fix(node: ast.AST) -> Suggestion:
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call) and _inplace_keyword(n)]
    edits = tuple(Edit("drop-keyword", c, "inplace") for c in calls[:1])
    return Suggestion("inplace-false", "use inplace=False", edits)
