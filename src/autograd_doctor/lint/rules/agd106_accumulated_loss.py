"""A loss total kept as a tensor across iterations and backwarded every iteration.

What it finds: `total = total + loss` in a loop, and `total.backward()` in the same loop,
with nothing resetting the total.

Why it breaks training: the second backward goes through the first iteration's loss again,
whose graph the first backward freed: "Trying to backward through the graph a second time".
Even with `retain_graph=True` each step would re-send every earlier step's gradients.

The fix: backward each iteration's own loss and keep the total for logging with `.item()`;
for gradient accumulation, reset the total after each optimizer step.
"""

from __future__ import annotations

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.accumulation import totals
from autograd_doctor.lint.rules import Check, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD106"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "accumulated-loss-backwarded"
ERROR = "backward-twice"
CATEGORY = "accumulated-loss"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
running = 0
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    running = running + loss
    opt.zero_grad()
    running.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
window = 0.0
for step in range(8):
    window = window + model(torch.randn(8, 4)).pow(2).mean() / 4
    window.backward()
    if (step + 1) % 4 == 0:
        opt.step()
        opt.zero_grad()
        window = 0.0
''')
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    total = 0
    for step in range(4):
        total = total + model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    (total / 4).backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
window = 0.0
for step in range(8):
    window = window + model(torch.randn(8, 4)).pow(2).mean() / 4
    if (step + 1) % 4 == 0:
        window.backward()
        opt.step()
        opt.zero_grad()
        window = 0.0
''')


def check(facts: f.FileFacts) -> Check:
    for total in totals(facts):
        backs = [b for b in total.backwards if not b.retains]
        if not backs or total.estimate:  # a moving average fed back: carried state (AGD101)
            continue
        line = backs[0].call.lineno
        fix = Suggestion("clear-after-step", f"backward each iteration's loss; keep "
                         f"{total.name} as a number", ())
        yield Hit(total.store, f"`{total.name}` sums every iteration's loss with its graph "
                  f"and is backwarded on line {line} each iteration; the second backward "
                  f"goes through the first iteration's freed graph. Backward "
                  f"`{reading.text(total.added)}` itself and keep the total with `.item()`, "
                  f"or reset it after each step.", total.name, fix)
