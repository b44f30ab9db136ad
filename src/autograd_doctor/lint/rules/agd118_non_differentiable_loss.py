"""The loss is computed from an op without a gradient (`argmax`, `round`, a comparison, a
cast to integers) applied to the model's output.

What it finds: the only path from a model into a backwarded loss goes through an op whose
result has no gradient.

Why it breaks training: the result carries no graph, so backward raises "element 0 of
tensors does not require grad and does not have a grad_fn".

The fix: compute the loss from the scores themselves (cross-entropy on logits, a soft
threshold through a sigmoid), or use a straight-through estimator where a hard value is
needed in the forward pass.
"""

from __future__ import annotations

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.cuts import failing, fix_for
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD118"
NEEDS = ("backward",)  # words a file must contain for the rule to read it
NAME = "loss-through-argmax"
ERROR = "no-grad-fn"
CATEGORY = "non-differentiable"

MESSAGE = ("`{name}` goes through `{cut}`, which has no gradient, and nothing else in the lo"
           "ss backwarded on line {line} comes from a model that learns: backward fails (doe"
           "s not require grad). Compute the loss from the scores themselves."
           )

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 4), torch.randint(0, 3, (8,))
    hits = (model(x).argmax(1) == y).float()
    loss = 1 - hits.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 4), torch.randint(0, 3, (8,))
    logits = model(x)
    accuracy = (logits.argmax(1) == y).float().mean()
    loss = nn.functional.cross_entropy(logits, y)
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
