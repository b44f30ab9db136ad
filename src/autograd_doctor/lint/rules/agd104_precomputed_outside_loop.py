"""A model output computed once before the training loop and used by the loss inside it.

What it finds: `emb = encoder(tokens)` (anything that runs a model or computes with a
parameter) before a loop that calls backward, and the loop's loss uses `emb` without
recomputing it.

Why it breaks training: the first iteration's backward frees the graph that made `emb`; the
second iteration's loss still starts from it, so its backward fails ("Trying to backward
through the graph a second time"). With `retain_graph=True` it runs, but `emb` keeps the
value computed from the weights before training started.

The fix: compute it inside the loop, from the current weights. If it is meant to stay fixed
(a target, an anchor), compute it under `torch.no_grad()` or `.detach()` it.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD104"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "precomputed-outside-loop"
ERROR = "backward-twice"
CATEGORY = "precomputed-outside-loop"

BAD = ('''
import torch
import torch.nn as nn


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos_emb = nn.Embedding(8, 4)
        self.pos = self.pos_emb(torch.arange(8))
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(x + self.pos)


model = Captioner()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

encoder = nn.Linear(4, 4)
head = nn.Linear(4, 1)
opt = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.1)
prototypes = encoder(torch.randn(3, 4))
for step in range(3):
    x = torch.randn(8, 4)
    loss = (head(x) - head(prototypes).mean()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

encoder = nn.Linear(4, 4)
head = nn.Linear(4, 1)
opt = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.1)
support = torch.randn(3, 4)
for step in range(3):
    prototypes = encoder(support)
    x = torch.randn(8, 4)
    loss = (head(x) - head(prototypes).mean()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

teacher = nn.Linear(4, 1)
student = nn.Linear(4, 1)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
x = torch.randn(8, 4)
with torch.no_grad():
    target = teacher(x)
for step in range(3):
    loss = (student(x) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''')


def check(facts: f.FileFacts) -> Check:
    yield from _in_init(facts)
    for scope in f.scopes(facts.tree):
        statements = f.body_statements(scope)
        for loop in f.loops(scope):
            backs = [b for b in f.backwards(loop) if not b.retains]
            if not backs:
                continue
            before = [s for s in statements if s.lineno < loop.lineno]
            inside = f.body_statements(loop)
            for back in backs:
                defs = f.flow(inside, until=back.call, start=f.flow(before))
                for stmt in f.history_statements(facts, defs, defs.of(back.target)):
                    if reading.inside(stmt, loop) or f.under_no_grad(scope, stmt) or any(
                            isinstance(c, ast.Call) and f.opaque_call(facts, c)
                            for c in f.nodes_of(stmt)):
                        continue
                    names = [reading.text(t) for t in reading.targets(stmt)]
                    if any(f.writes(loop, n) for n in names) or not isinstance(stmt,
                                                                                ast.Assign):
                        continue
                    yield _hit(stmt, names[0], loop, back)


def _hit(stmt: ast.Assign, name: str, loop: f.Loop, back: f.Backward) -> Hit:
    text = ast.unparse(stmt)
    fix = Suggestion("recompute-in-loop", f"compute {name} inside the loop",
                     (Edit("insert-before", loop.body[0], text),))
    return Hit(stmt, f"`{name}` is computed once, before the loop on line {loop.lineno}, and "
               f"the loss backwarded on line {back.call.lineno} uses it every iteration; the "
               f"first backward frees its graph, so the second fails. Compute it inside the "
               f"loop (or under torch.no_grad() if it is meant to stay fixed).", name, fix)


def _in_init(facts: f.FileFacts) -> Check:
    """`self.x = encoder(...)` in `__init__`, read every step: in a model's own methods (its
    forward runs every step), or in a method of another class that backwards through it."""
    for cls in ast.walk(facts.tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        init = next((m for m in methods if m.name == "__init__"), None)
        if init is None:
            continue
        body = f.body_statements(init)
        for stmt in body:
            if not isinstance(stmt, ast.Assign) or f.under_no_grad(init, stmt) or any(
                    isinstance(c, ast.Call) and f.opaque_call(facts, c)
                    for c in f.nodes_of(stmt)):
                continue
            defs = f.flow(body, until=stmt)
            if not (f.makes_history(facts, stmt.value) or f.history_statements(
                    facts, defs, defs.of(stmt.value))):
                continue
            for target in reading.targets(stmt):
                name = reading.text(target)
                if not name.startswith("self."):
                    continue
                reader = _read_each_step(facts, cls, methods, init, name)
                if reader is not None:
                    yield Hit(stmt, f"`{name}` is computed once, in `__init__`, and "
                              f"`{reader.name}` uses it with its graph every step; the first "
                              f"backward frees that graph, so the second fails. Compute it "
                              f"where it is used (or under torch.no_grad() if it is meant to "
                              f"stay fixed).", name,
                              Suggestion("recompute-in-loop", f"compute {name} where it is "
                                         f"used", ()))


def _read_each_step(facts: f.FileFacts, cls: ast.ClassDef, methods: list[f.Function],
                    init: f.Function, name: str) -> f.Function | None:
    model = cls.name in facts.model_classes
    for method in methods:
        if method is init or f.writes(method, name) or f.under_no_grad(method, method):
            continue
        reads = any(isinstance(n, ast.Attribute) and reading.text(n) == name
                    and isinstance(n.ctx, ast.Load)
                    for s in f.body_statements(method) for n in f.live_nodes(f.value_of(s)))
        if not reads:
            continue
        if model:
            return method
        body = f.body_statements(method)
        if any(name in f.chain_names(f.flow(body, until=b.call), b)
               for b in f.backwards(method) if not b.retains):
            return method
    return None
