"""Backward on a detached copy of the loss (`loss.clone().detach().requires_grad_()`).

What it finds: a value is cut from the graph (`.detach()`, `.data`, `.item()` wrapped in
`torch.tensor(...)`) and made to require grad again, and backward is called on it (or on
something computed from it without any model in between).

Why it breaks training: the copy is a new leaf with no history. Backward runs without an
error, fills the copy's own `.grad`, and sends nothing to the model: no parameter learns.
This is the folk fix for "Trying to backward through the graph a second time" or "element 0
of tensors does not require grad".

The fix: backward the original loss, and fix the error that made the copy look necessary.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.cuts import switched_on
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import patterns, reading

CODE = "AGD108"
NEEDS_MODEL = False  # it reads the file even where no model can be named
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "backward-on-detached-copy"
ERROR = "silent-no-grad"
CATEGORY = "detached-loss"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss = loss.clone().detach().requires_grad_(True)
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    err = model(torch.randn(8, 4)).pow(2).mean()
    loss = torch.tensor(err.item(), requires_grad=True)
    opt.zero_grad()
    loss.backward()
    opt.step()
''')
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    x = torch.randn(8, 4)
    x_adv = x.clone().detach().requires_grad_(True)
    loss = model(x_adv).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)


def check(facts: f.FileFacts) -> Check:
    for scope in f.scopes(facts.tree):
        body = f.body_statements(scope)
        regrad = switched_on(body)
        for back in f.backwards(scope):
            if not isinstance(back.call.func, ast.Attribute) or back.call.func.attr != \
                    "backward":
                continue  # autograd.grad(..., inputs=copy): the gradient for the copy is the point
            defs = f.flow(body, until=back.call)
            chain = [defs.by_id[i] for i in defs.of(back.target) if i in defs.by_id]
            chain = [s for s in chain if s.lineno < back.call.lineno]
            if not all(_only_arithmetic(f.value_of(s)) for s in chain
                       if not _regrad(s, regrad)) or not _only_arithmetic(back.target):
                continue  # something runs between the copy and the backward: it may learn
            copies = [s for s in chain if _regrad(s, regrad)]
            if not copies:
                continue
            copy = max(copies, key=lambda s: s.lineno)
            if any(isinstance(c, ast.Call) and f.is_forward(facts, c)
                   for c in ast.walk(copy)):
                continue  # a model's output made a leaf: AGD119's cut graph
            name = reading.text(reading.targets(copy)[0])
            original = _original(copy)
            edits: tuple[Edit, ...] = ()
            if original == name:
                edits = (Edit("delete", copy),)  # `loss = loss.clone().detach()...`: drop it
            elif original and isinstance(copy, ast.Assign):
                edits = (Edit("replace", copy.value, original),)
            fix = Suggestion("backward-original-loss", "backward the original loss", edits)
            yield Hit(copy, f"`{name}` is a detached copy made to require grad; the backward "
                      f"on line {back.call.lineno} fills only the copy's own gradient and "
                      f"nothing reaches the model: no parameter learns. Backward the original "
                      f"loss.", name, fix)


_REDUCTIONS = frozenset({"mean", "sum", "float", "squeeze", "view", "reshape", "double"})


def _only_arithmetic(node: ast.AST) -> bool:
    """Only arithmetic and reductions: no call that could run a model on the copy."""
    return all(not isinstance(n, ast.Call) or isinstance(n.func, ast.Attribute)
               and n.func.attr in _REDUCTIONS for n in ast.walk(node))


def _regrad(stmt: ast.stmt, switched: set[str]) -> bool:
    value = getattr(stmt, "value", None)
    if not isinstance(stmt, ast.Assign) or value is None:
        return False
    if _cut(value) and any(reading.text(t) in switched for t in stmt.targets):
        return True
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "requires_grad_" \
                    and _cut(node.func.value):
                return True
            if ast.unparse(node.func) in patterns.REWRAP_CALLS and any(
                    k.arg == "requires_grad" and isinstance(k.value, ast.Constant)
                    and k.value.value is True for k in node.keywords):
                return True
    return False


def _cut(node: ast.expr) -> bool:
    return any(patterns.history_cut(n) is not None or patterns.leaves_torch(n)
               for n in ast.walk(node))


def _original(stmt: ast.stmt) -> str:
    value = getattr(stmt, "value", None)
    if not isinstance(value, ast.expr):
        return ""
    kept = patterns.stripped_copy(value)
    if kept is not None:
        return ast.unparse(kept)
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in patterns.REWRAP_CALLS \
                and node.args and isinstance(node.args[0], ast.Call):
            inner = patterns.stripped_copy(node.args[0])
            if inner is not None:
                return ast.unparse(inner)
    return ""
