"""The loss left PyTorch (`.item()`, `.tolist()`, `.numpy()`, `float()`) and came back as a
new tensor.

What it finds: a value computed from a model is turned into a Python number or a NumPy
array and wrapped again (`torch.tensor(loss.item())`), and the backwarded loss has nothing
else from a model that learns.

Why it breaks training: the new tensor has no history, so backward raises "element 0 of
tensors does not require grad and does not have a grad_fn".

The fix: compute the loss with torch operations, as a tensor, all the way.
"""

from __future__ import annotations

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.cuts import failing, fix_for
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD117"
NEEDS = ("backward",)  # words a file must contain for the rule to read it
NAME = "loss-left-torch"
ERROR = "no-grad-fn"
CATEGORY = "rewrapped"

MESSAGE = ("`{name}` is made from a Python value (`{cut}` left PyTorch), and nothing else in"
           " the loss backwarded on line {line} comes from a model that learns: the loss has"
           " no graph and backward fails (does not require grad). Compute it with torch oper"
           "ations."
           )

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    errors = (model(torch.randn(8, 4)) - 1).abs().squeeze(1)
    loss = torch.tensor(errors.mean().item())
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
for step in range(3):
    loss = (model(torch.randn(8, 4)) - 1).abs().mean()
    history.append(loss.item())
    opt.zero_grad()
    loss.backward()
    opt.step()
print(torch.tensor(history).mean())
''',)


def check(facts: f.FileFacts) -> Check:
    for cut in failing(facts, CATEGORY):
        strategy, description, edits = fix_for(cut)
        names = [reading.text(t) for t in reading.targets(cut.at)]
        name = names[0] if names else reading.text(cut.node)
        yield Hit(cut.at, MESSAGE.format(name=name, cut=reading.text(cut.node),
                                         line=cut.back.call.lineno), name,
                  Suggestion(strategy, description, tuple(Edit(*e) for e in edits)))
