"""A value is assigned to `requires_grad_`, the method, instead of `requires_grad`.

What it finds: `p.requires_grad_ = True` (or `model.requires_grad_ = False`), an attribute
assignment to the name of the in-place method.

Why it breaks training: the assignment only hides the method behind a new attribute on that
object; the flag itself never changes. A backbone "unfrozen" this way stays frozen: its
parameters sit in the optimizer and never receive a gradient, and nothing raises.

The fix: set the flag (`p.requires_grad = True`) or call the method
(`p.requires_grad_(True)`).
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD123"
NEEDS = ("requires_grad_",)  # words a file must contain for the rule to read it
NAME = "requires-grad-method-assigned"
ERROR = "silent-no-grad"
CATEGORY = "optimizer-other-model"
CAUSE_EXAMPLE = False  # the cause's own example freezes nothing by mistake

MESSAGE = ("`{name} = ...` assigns to the method `requires_grad_`, not to the flag: "
           "`{owner}` keeps the requires_grad it had, and what was frozen never learns. Set "
           "`{owner}.requires_grad` instead.")

BAD = ('''
import torch.nn as nn
import torch

model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1))
for p in model[0].parameters():
    p.requires_grad = False
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(6):
    if step == 2:
        for p in model[0].parameters():
            p.requires_grad_ = True
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch.nn as nn
import torch

model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1))
model[0].requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(6):
    if step == 2:
        for p in model[0].parameters():
            p.requires_grad = True
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)


def check(facts: f.FileFacts) -> Check:
    for node in ast.walk(facts.tree):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        for target in reading.targets(node):
            if isinstance(target, ast.Attribute) and target.attr == "requires_grad_":
                owner = reading.text(target.value)
                yield Hit(node, MESSAGE.format(name=reading.text(target), owner=owner),
                          owner, Suggestion("unfreeze", f"set {owner}.requires_grad",
                                            (Edit("replace", target,
                                                  f"{owner}.requires_grad"),), safe=True))
