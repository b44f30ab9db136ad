"""Two backward calls in one step through a shared forward, without `retain_graph`.

What it finds: two losses computed from one forward (two heads, a reconstruction and a
regulariser) are backwarded one after the other, and the first call does not keep the graph.

Why it breaks training: the first backward frees the shared part of the graph; the second
walks into it and PyTorch raises "Trying to backward through the graph a second time".

The fix: add the losses and call backward once (`(loss_a + loss_b).backward()`): the
gradients are the same as two calls with `retain_graph=True` on the first, at the cost of
one backward pass.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD103"
# The shared-subgraph cause's own example (a GAN) is AGD102's.
CAUSE_EXAMPLE = False
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "two-backwards-shared-forward"
ERROR = "backward-twice"
CATEGORY = "shared-subgraph"

BAD = ('''
import torch
import torch.nn as nn

trunk = nn.Linear(4, 8)
head_a = nn.Linear(8, 1)
head_b = nn.Linear(8, 1)
params = [*trunk.parameters(), *head_a.parameters(), *head_b.parameters()]
opt = torch.optim.SGD(params, lr=0.1)
for step in range(3):
    feats = trunk(torch.randn(16, 4))
    loss_a = head_a(feats).pow(2).mean()
    loss_b = head_b(feats).abs().mean()
    opt.zero_grad()
    loss_a.backward()
    loss_b.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

trunk = nn.Linear(4, 8)
head_a = nn.Linear(8, 1)
head_b = nn.Linear(8, 1)
params = [*trunk.parameters(), *head_a.parameters(), *head_b.parameters()]
opt = torch.optim.SGD(params, lr=0.1)
for step in range(3):
    feats = trunk(torch.randn(16, 4))
    loss_a = head_a(feats).pow(2).mean()
    loss_b = head_b(feats).abs().mean()
    opt.zero_grad()
    loss_a.backward(retain_graph=True)
    loss_b.backward()
    opt.step()
''',)


def check(facts: f.FileFacts) -> Check:
    for scope, loop, body in f.training_bodies(facts.tree):
        backs = f.step_backwards(facts, loop)
        for first, second in zip(backs, backs[1:]):
            if first.retains or reading.text(first.target) == reading.text(second.target) \
                    or f.steps_between(body, first.call, second.call) or f.steps_inside(first) \
                    or f.exclusive(loop, first.call, second.call):
                continue
            shared = f.shared_forward(facts, scope, body, first, second)
            if shared is None:
                continue
            a, b = reading.text(first.target), reading.text(second.target)
            stmt = f.statement_of(body, first.call)
            fix = None
            if isinstance(stmt, ast.Expr) and stmt.value is first.call:
                fix = Suggestion("sum-losses", f"backward {a} + {b} once",
                                 (Edit("delete", stmt),
                                  Edit("replace", second.target, f"({a} + {b})")))
            name = reading.text(reading.targets(shared)[0])
            yield Hit(shared, f"`{a}` and `{b}` both go through `{name}`; the backward on "
                      f"line {first.call.lineno} frees that graph, so the one on line "
                      f"{second.call.lineno} fails (backward through the graph a second "
                      f"time). Add the losses and backward once.", name, fix)
