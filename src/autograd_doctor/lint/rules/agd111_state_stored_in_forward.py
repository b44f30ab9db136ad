"""A tensor with history kept on an object (a model's cache or memory, a moving average on
`self`) and read again by the next step.

What it finds: in a method of an `nn.Module` subclass, `self.X` is read (without `.detach()`)
and later in the same method set from a layer's output, or a container on `self` gets such
values, so each call starts from what the previous call stored; or a moving average kept on
an object (`self.ema = m * self.ema + (1 - m) * x`) that the training loss reads.

Why it breaks training: the training step's backward frees the graph that made `self.X`; the
next call's output depends on it again, so the next backward fails ("Trying to backward
through the graph a second time"). With `retain_graph=True` the graphs chain up instead.

The fix: store it detached (`self.X = value.detach()`): what a cache, a memory or an average
holds is a value, not a path for gradients into past steps.
"""

from __future__ import annotations

import ast

from autograd_doctor.edits import forms
from autograd_doctor.lint import facts as f
from autograd_doctor.lint.carry import carried, kept_estimate
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD111"
NEEDS = ("self.",)  # words a file must contain for the rule to read it
NAME = "history-stored-on-self"
ERROR = "backward-twice"
CATEGORY = "stored-state"

BAD = ('''
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.center = torch.zeros(4)

    def step(self, x):
        out = self.model(x)
        self.center = 0.9 * self.center + 0.1 * out.mean(0)
        loss = (out - self.center).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


trainer = Trainer(nn.Linear(4, 4))
for _ in range(3):
    trainer.step(torch.randn(8, 4))
''', '''
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
    for found in carried(facts):
        if kept_estimate(found) and not any(b.retains for b in found.backwards):
            value = reading.text(found.store.value)
            yield Hit(found.store, f"`{found.name}` keeps a moving average with its graph, and "
                      f"the loss backwarded on line {found.backwards[0].call.lineno} reads it: "
                      f"the next step's backward goes through the graph this step's backward "
                      f"freed. Keep the average detached.", found.name,
                      Suggestion("detach-on-store", f"store {found.name} detached",
                                 (Edit("replace", found.store.value, forms.detached(value)),)))
    models = facts.model_classes
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
        if f.under_no_grad(method, stmt):
            continue
        for name, value, container in _kept(stmt):
            if not name.startswith("self.") or _reset(method, stmt, name):
                continue
            defs = f.flow(body, until=stmt)
            if not (f.makes_history(facts, value) or f.history_statements(
                    facts, defs, defs.of(value))):
                continue
            # What the next call reads: for a plain attribute, a read before the store; for
            # a container, any read (what is appended now is read by a later call).
            reads = [n for s in body if s is not stmt and (container or s.lineno < stmt.lineno)
                     for n in f.live_nodes(f.value_of(s))
                     if isinstance(n, ast.Attribute) and reading.text(n) == name
                     and isinstance(n.ctx, ast.Load)]
            if not reads:
                continue
            text = reading.text(value)
            fix = Suggestion("detach-on-store", f"store {text} detached",
                             (Edit("replace", value, forms.detached(text)),))
            yield Hit(stmt, f"`{name}` keeps `{text}` with its graph in `{method.name}`, and "
                      f"the next call reads it (line {reads[0].lineno}); the training step's "
                      f"backward frees that graph, so the next backward fails. Store it "
                      f"detached.", name, fix)


def _kept(stmt: ast.stmt) -> list[tuple[str, ast.expr, bool]]:
    """(name, stored value, whether into a container) for the stores of one statement."""
    found = f.stored(stmt)
    if found is not None:
        return [(found[0], found[1], True)]
    if isinstance(stmt, ast.Assign):
        return [(reading.text(t), stmt.value, False) for t in reading.targets(stmt)
                if isinstance(t, ast.Attribute)]
    return []


def _reset(method: f.Function, stmt: ast.stmt, name: str) -> bool:
    """Is `name` also rebound in the method to something that does not read it (a reset)?"""
    return any(w is not stmt and isinstance(w, ast.Assign)
               and name not in f.live_names(w.value) for w in f.writes(method, name))
