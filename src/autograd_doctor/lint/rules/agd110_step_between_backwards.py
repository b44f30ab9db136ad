"""`optimizer.step()` between two backward calls through one graph.

What it finds: a first backward that keeps the graph (`retain_graph=True`), an optimizer
step, then a second backward through the same forward (actor-critic updates, a GAN whose
discriminator steps before the generator's backward).

Why it breaks training: the step updates the weights in place, but the graph saved their old
values for the second backward: PyTorch raises "one of the variables needed for gradient
computation has been modified by an inplace operation".

The fix: call every backward first and step the optimizers after them, or detach what the
first update's loss takes from the shared forward.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD110"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "step-between-backwards"
ERROR = "inplace-modified"
CATEGORY = "optimizer-step-between"

BAD = ('''
import torch
import torch.nn as nn

body = nn.Linear(4, 8)
actor = nn.Linear(8, 2)
critic = nn.Linear(8, 1)
opt_critic = torch.optim.SGD([*body.parameters(), *critic.parameters()], lr=0.1)
opt_actor = torch.optim.SGD(actor.parameters(), lr=0.1)
for step in range(3):
    feats = body(torch.randn(16, 4))
    value_loss = critic(feats).pow(2).mean()
    opt_critic.zero_grad()
    value_loss.backward(retain_graph=True)
    opt_critic.step()
    policy_loss = -actor(feats).log_softmax(-1).mean()
    opt_actor.zero_grad()
    policy_loss.backward()
    opt_actor.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

body = nn.Linear(4, 8)
actor = nn.Linear(8, 2)
critic = nn.Linear(8, 1)
opt_critic = torch.optim.SGD([*body.parameters(), *critic.parameters()], lr=0.1)
opt_actor = torch.optim.SGD(actor.parameters(), lr=0.1)
for step in range(3):
    feats = body(torch.randn(16, 4))
    value_loss = critic(feats).pow(2).mean()
    policy_loss = -actor(feats).log_softmax(-1).mean()
    opt_critic.zero_grad()
    opt_actor.zero_grad()
    value_loss.backward(retain_graph=True)
    policy_loss.backward()
    opt_critic.step()
    opt_actor.step()
''',)


def check(facts: f.FileFacts) -> Check:
    for scope, loop, body in f.training_bodies(facts.tree):
        backs = f.backwards(loop)
        for first, second in zip(backs, backs[1:]):
            steps = f.steps_between(body, first.call, second.call)
            if not first.retains or not steps:
                continue
            shared = f.shared_forward(facts, scope, body, first, second)
            if shared is None:
                continue
            stepped = [s for s in steps if _updates(facts, s, shared)]
            if not stepped:
                continue  # the step updates weights the shared part does not use
            step = stepped[0]
            name = reading.text(reading.targets(shared)[0])
            yield Hit(step, f"`{reading.text(step)}` updates weights in "
                      f"place between the backward on line {first.call.lineno} and the one "
                      f"on line {second.call.lineno}, which both go through `{name}`: the "
                      f"second needs the old weights (modified by an inplace operation). "
                      f"Step after every backward.", reading.text(step), Suggestion(
                          "reorder-step", "step the optimizer after both backward calls", ()))


def _updates(facts: f.FileFacts, step: ast.Call, shared: ast.stmt) -> bool:
    """Does this optimizer hold parameters of a model the shared statement runs?"""
    optimizer = reading.text(step.func.value) if isinstance(step.func, ast.Attribute) else ""
    held = facts.optimizers.get(optimizer, set())
    ran = {reading.text(c.func) for c in ast.walk(shared) if isinstance(c, ast.Call)
           and f.is_forward(facts, c)}
    return any(r == m or r.startswith(m + ".") for r in ran for m in held)
