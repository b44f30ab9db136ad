"""A running total kept as a tensor with history (`total += loss`).

What it finds: in a loop, a total (or a sum for a metric) adds a value that has a graph, and
nothing backwards the total.

Why it breaks training: each addition links this iteration's whole graph to the total, so no
graph is ever freed: memory and the time of every later step grow until the job runs out of
memory. Nothing fails; it only gets slower.

The fix: add a value without history: `total += loss.detach()` (or `loss.item()` for a plain
number). This never changes what is computed: the total was not backwarded.
"""

from __future__ import annotations

from autograd_doctor.edits import forms
from autograd_doctor.lint import facts as f
from autograd_doctor.lint.accumulation import totals
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD105"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "accumulated-tensor"
ERROR = "graph-growth"
CATEGORY = "accumulated-tensor"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0.0
for step in range(10):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss
print(f"mean loss {total / 10:.4f}")
''', '''
import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n):
        self.sum += value * n
        self.count += n


model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
meter = AverageMeter()
for step in range(10):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    meter.update(loss, 8)
''', '''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
smoothed = None
for step in range(10):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    smoothed = loss if smoothed is None else 0.9 * smoothed + 0.1 * loss
''')
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0.0
for step in range(10):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
print(f"mean loss {total / 10:.4f}")
''', '''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
total = 0.0
with torch.no_grad():
    for step in range(10):
        total += model(torch.randn(8, 4)).pow(2).mean()
print(float(total))
''')


def check(facts: f.FileFacts) -> Check:
    for total in totals(facts):
        if total.backwards or total.backwarded_later:
            continue  # AGD106, or a total built to be backwarded once: both intended
        added = reading.text(total.added)
        fix = Suggestion("detach-on-store", f"add {added} without its graph",
                         (Edit("replace", total.added, forms.detached(added)),), safe=True)
        kept = "averages in" if total.estimate else "adds"
        yield Hit(total.store, f"`{total.name}` {kept} `{added}` with its graph "
                  f"{f.each_run(total.loop)}, so no step's graph is ever freed: memory and "
                  f"step time grow. Use "
                  f"`{forms.detached(added)}` (or `.item()`).", total.name, fix)
