"""Tensors with history appended to a list every training step.

What it finds: in a loop that calls backward, `history.append(x)` where `x` comes from a
model (predictions, per-step losses), the list lives across iterations, and no backward ever
reads it.

Why it matters: each element keeps its step's whole graph alive. Nothing fails, but memory
grows with every step until the job runs out of it.

The fix: append `x.detach()` (or `x.item()` for a number). The autofix appends `.detach()`:
the same values, without the graphs.
"""

from __future__ import annotations

import ast

from autograd_doctor.edits import forms
from autograd_doctor.lint import facts as f
from autograd_doctor.lint.accumulation import helper_calls
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD112"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "history-kept-in-list"
ERROR = "graph-growth"
CATEGORY = "history-list"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for step in range(10):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss)
print(torch.stack(losses).mean())
''', '''
import torch
import torch.nn as nn


class History:
    def __init__(self):
        self.losses = []

    def record(self, loss):
        self.losses.append(loss)


model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = History()
for step in range(10):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.record(loss)
''')
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for step in range(10):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(sum(losses) / len(losses))
''', '''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    terms = []
    for step in range(4):
        terms.append(model(torch.randn(8, 4)).pow(2).mean())
    opt.zero_grad()
    torch.stack(terms).mean().backward()
    opt.step()
''')


def check(facts: f.FileFacts) -> Check:
    for scope in f.scopes(facts.tree):
        everything = f.body_statements(scope)
        backs_anywhere = f.backwards(scope)
        for loop in f.repeated(scope):
            if not f.backwards(loop):
                continue
            body = f.body_statements(loop)
            for stmt in body:
                found = _append(stmt)
                if found is None or f.under_no_grad(scope, stmt):
                    continue
                name, value = found
                if f.writes(loop, name) or not f.persists(scope, loop, name):
                    continue
                defs = f.flow(body, until=stmt)
                if not (f.makes_history(facts, value) or f.history_statements(
                        facts, defs, defs.of(value))) or not f.feeds_backward(
                        body, value, f.backwards(loop)):
                    continue
                if any(name in f.live_names(b.target) or f.reaches(everything, stmt, b)
                       or _feeds(everything, name, b) for b in backs_anywhere):
                    continue
                yield _hit(stmt, name, value, f.each_run(loop))
            if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
                yield from _in_helpers(facts, loop)


def _hit(stmt: ast.stmt, name: str, value: ast.expr, when: str) -> Hit:
    text = reading.text(value)
    fix = Suggestion("detach-on-store", f"keep {text} without its graph",
                     (Edit("replace", value, forms.detached(text)),), safe=True)
    return Hit(stmt, f"`{name}` gets `{text}` with its graph {when}: every step's graph "
               f"stays alive and memory grows. Append `{forms.detached(text)}`.", name, fix)


def _in_helpers(facts: f.FileFacts, loop: f.Loop) -> Check:
    """Lists kept by a helper (a callback, a history object) that the training loop hands a
    value with history every step: `history.record(loss)` with `self.losses.append(x)`."""
    body = f.body_statements(loop)
    backs = f.backwards(loop)
    for stmt, call, helper, bound in helper_calls(facts, body):
        inner = f.body_statements(helper)
        for store in inner:
            found = _append(store)
            if found is None:
                continue
            name, value = found
            if not f.persists(helper, helper, name) or f.writes(helper, name):
                continue
            defs = f.flow(inner, until=store)
            read = f.live_names(value) | {n for i in defs.of(value) if i in defs.by_id
                                          for n in f.live_names(f.value_of(defs.by_id[i]))}
            given = [bound[p] for p in read if p in bound]
            loop_defs = f.flow(body, until=stmt)
            if any((f.makes_history(facts, arg) or f.history_statements(
                    facts, loop_defs, loop_defs.of(arg))) and f.feeds_backward(body, arg, backs)
                   for arg in given):
                yield _hit(store, name, value, f"every time `{helper.name}` is called "
                                               f"(line {call.lineno})")


def _append(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(
            stmt.value.func, ast.Attribute) and stmt.value.func.attr in ("append",
                                                                          "appendleft") \
            and len(stmt.value.args) == 1 and isinstance(stmt.value.func.value,
                                                         (ast.Name, ast.Attribute)):
        return reading.text(stmt.value.func.value), stmt.value.args[0]
    return None


def _feeds(statements: list[ast.stmt], name: str, back: f.Backward) -> bool:
    """Is the list read by a statement that a backward call depends on?"""
    defs = f.flow(statements, until=back.call)
    return any(name in f.live_names(f.value_of(defs.by_id[i]))
               for i in defs.of(back.target) if i in defs.by_id)
