"""A tensor with history stored on `self` in a model's method and read by the next call.

What it finds: in a method of an `nn.Module` subclass, `self.X` is read (without `.detach()`)
and later in the same method set from a layer's output, so each call starts from what the
previous call stored: a cache, a memory, a running estimate.

Why it breaks training: the training step's backward frees the graph that made `self.X`; the
next call's output depends on it again, so the next backward fails ("Trying to backward
through the graph a second time"). With `retain_graph=True` the graphs chain up instead.

The fix: store it detached (`self.X = value.detach()`): what a cache or memory holds is a
value, not a path for gradients into past steps.
"""

from __future__ import annotations

import ast

from autograd_doctor.edits import forms
from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD111"
NEEDS = ("Module",)  # words a file must contain for the rule to read it
NAME = "history-stored-on-self"
ERROR = "backward-twice"
CATEGORY = "stored-state"

BAD = ('''
import torch
import torch.nn as nn


class Smoother(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.memory = torch.zeros(1, 4)

    def forward(self, x):
        out = self.proj(x) + self.memory
        self.memory = out.mean(0, keepdim=True)
        return out


model = Smoother()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn


class Smoother(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.memory = torch.zeros(1, 4)

    def forward(self, x):
        out = self.proj(x) + self.memory
        self.memory = out.mean(0, keepdim=True).detach()
        return out
''',)


def check(facts: f.FileFacts) -> Check:
    models = f.model_classes(facts.tree)
    for cls in ast.walk(facts.tree):
        if not isinstance(cls, ast.ClassDef) or cls.name not in models:
            continue
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                    method.name == "__init__" or f.under_no_grad(method, method):
                continue
            yield from _stores(facts, method)


def _stores(facts: f.FileFacts, method: f.Function) -> Check:
    body = f.body_statements(method)
    for stmt in body:
        if not isinstance(stmt, ast.Assign) or f.under_no_grad(method, stmt):
            continue
        for target in reading.targets(stmt):
            name = reading.text(target)
            if not name.startswith("self.") or not isinstance(target, ast.Attribute):
                continue
            defs = f.flow(body, until=stmt)
            if not (f.makes_history(facts, stmt.value) or f.history_statements(
                    facts, defs, defs.of(stmt.value))):
                continue
            earlier = [n for s in body if s.lineno < stmt.lineno
                       for n in f.live_nodes(getattr(s, "value", s))
                       if isinstance(n, ast.Attribute) and reading.text(n) == name
                       and isinstance(n.ctx, ast.Load)]
            if not earlier:
                continue
            value = reading.text(stmt.value)
            fix = Suggestion("detach-on-store", f"store {name} detached",
                             (Edit("replace", stmt.value, forms.detached(value)),))
            yield Hit(stmt, f"`{name}` is stored with its graph in `{method.name}` and read "
                      f"by the next call (line {earlier[0].lineno}); the training step's "
                      f"backward frees that graph, so the next backward fails. Store it "
                      f"detached.", name, fix)
