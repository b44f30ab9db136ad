"""`retain_graph=True` in a training loop where nothing backwards the same graph again.

What it finds: a loop whose only backward call passes `retain_graph=True`.

Why it matters: it is the fix PyTorch's error message suggests, and it usually hides the bug.
When a value carries its graph from one iteration into the next (a hidden state, a running
estimate), every step's graph stays alive through it: memory and step time grow every step,
and an optimizer step turns it into an in-place error. When nothing is carried, it only holds
this step's graph longer than needed.

The fix: detach what is carried where it enters the next step, and drop
`retain_graph=True`. When nothing is carried, dropping it changes nothing that is computed
(the autofix does that).
"""

from __future__ import annotations

import ast

from autograd_doctor.edits import forms
from autograd_doctor.lint import facts as f
from autograd_doctor.lint.carry import carried
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD107"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "retain-graph-in-loop"
ERROR = "graph-growth"
CATEGORY = "retain-graph-carried"

BAD = ('''
import torch
import torch.nn as nn

cell = nn.GRUCell(3, 5)
opt = torch.optim.Adam(cell.parameters())
h = torch.zeros(2, 5)
for step in range(10):
    h = cell(torch.randn(2, 3), h)
    loss = h.pow(2).mean()
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
''', '''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
''')
GOOD = ('''
import torch
import torch.nn as nn

trunk = nn.Linear(4, 8)
heads = nn.ModuleList([nn.Linear(8, 1), nn.Linear(8, 1)])
opt = torch.optim.SGD([*trunk.parameters(), *heads.parameters()], lr=0.1)
for step in range(3):
    feats = trunk(torch.randn(16, 4))
    opt.zero_grad()
    heads[0](feats).mean().backward(retain_graph=True)
    heads[1](feats).mean().backward()
    opt.step()
''',)


def check(facts: f.FileFacts) -> Check:
    states = {id(c.loop): c for c in carried(facts) if any(b.retains for b in c.backwards)}
    for scope in f.scopes(facts.tree):
        for loop in f.loops(scope):
            backs = f.backwards(loop)
            if len(backs) != 1 or not _literal_retain(backs[0].call) or not all(
                    f.writes(loop, n) for n in f.live_names(backs[0].target)):
                continue  # a graph made before the loop is backwarded again each iteration
            found = states.get(id(loop))
            if found is not None:
                name = found.name
                fix = Suggestion("detach-at-boundary", f"detach {name} where it enters the "
                                 f"next step", (Edit("insert-before", found.store,
                                                     f"{name} = {forms.detached(name)}"),))
                yield Hit(found.store, f"`{name}` carries its graph into the next iteration "
                          f"and `retain_graph=True` (line {backs[0].call.lineno}) keeps "
                          f"every step's graph alive through it: memory and step time grow "
                          f"every step. Detach `{name}` where it enters the next step and "
                          f"drop retain_graph.", name, fix)
                continue
            if _loop_carries_anything(facts, loop):
                continue  # something else keeps graphs across steps: let the user look
            fix = Suggestion("drop-retain-graph", "drop retain_graph=True: nothing "
                             "backwards this graph again",
                             (Edit("drop-keyword", backs[0].call, "retain_graph"),), safe=True)
            yield Hit(backs[0].call, f"`retain_graph=True` in a loop where nothing "
                      f"backwards the same graph again (line {loop.lineno}): it keeps this "
                      f"step's graph alive longer than needed and would hide a real second "
                      f"backward. Drop it.", ast.unparse(backs[0].target), fix)


def _literal_retain(call: ast.Call) -> bool:
    if not isinstance(call.func, ast.Attribute) or call.func.attr != "backward":
        return False  # autograd.grad keeps a graph to differentiate it again
    return any(k.arg == "retain_graph" and isinstance(k.value, ast.Constant)
               and k.value.value is True for k in call.keywords) and not any(
        k.arg in ("create_graph", "inputs") or k.arg is None for k in call.keywords)


def _loop_carries_anything(facts: f.FileFacts, loop: f.Loop) -> bool:
    """Any store in the loop that reads what it binds, or puts values into a container,
    or a backward target read from outside the loop: the retained graph may be used."""
    for stmt in f.body_statements(loop):
        value = getattr(stmt, "value", None)
        if value is None:
            continue
        names = {ast.unparse(t) for t in _targets(stmt)}
        if names & f.live_names(value) or isinstance(stmt, ast.Expr) and isinstance(
                value, ast.Call) and isinstance(value.func, ast.Attribute) and \
                value.func.attr in reading.MUTATORS:
            return True
    return False


def _targets(stmt: ast.stmt) -> list[ast.expr]:
    return reading.targets(stmt)
