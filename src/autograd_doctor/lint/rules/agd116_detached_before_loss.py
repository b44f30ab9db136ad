"""The only model output on the way to a backwarded loss was detached (`.detach()`, `.data`).

What it finds: a model's output goes through `.detach()` or `.data` before the loss, and
nothing else in the loss comes from a model that learns; then backward is called on it.

Why it breaks training: the loss has no graph, so backward raises "element 0 of tensors does
not require grad and does not have a grad_fn".

The fix: keep the graph (drop the `.detach()`); detach only what must not learn (a target,
a teacher's output).
"""

from __future__ import annotations

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.cuts import failing, fix_for
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD116"
NEEDS = ("backward",)  # words a file must contain for the rule to read it
NAME = "model-output-detached"
ERROR = "no-grad-fn"
CATEGORY = "detached"

MESSAGE = ("`{name}` takes the model's output through `{cut}`, and nothing else in the loss "
           "backwarded on line {line} comes from a model that learns: the loss has no graph "
           "and backward fails (does not require grad). Keep the graph: drop the detach."
           )

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    pred = model(torch.randn(8, 4)).detach()
    loss = (pred - 1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

student, teacher = nn.Linear(4, 1), nn.Linear(4, 1)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(8, 4)
    target = teacher(x).detach()
    loss = (student(x) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)


def check(facts: f.FileFacts) -> Check:
    for cut in failing(facts, CATEGORY):
        strategy, description, edits = fix_for(cut)
        names = [reading.text(t) for t in reading.targets(cut.at)]
        name = names[0] if names else reading.text(cut.node)
        yield Hit(cut.at, MESSAGE.format(name=name, cut=reading.text(cut.node),
                                         line=cut.back.call.lineno), name,
                  Suggestion(strategy, description, tuple(Edit(*e) for e in edits)))
