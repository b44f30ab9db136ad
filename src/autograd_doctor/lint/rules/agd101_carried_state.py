"""State fed back into a model inside a training loop, with no detach.

What it finds: in a loop that calls backward, a value the model returns is passed back into
the model on the next iteration (`out, h = model(x, h)`), and nothing detaches it.

Why it breaks training: the first backward frees the graph that made `h`. The next
iteration's graph starts from `h`, so its backward walks into the freed part and PyTorch
raises "Trying to backward through the graph a second time". `retain_graph=True` silences
that and instead keeps every step's graph alive: memory and step time grow without end.

The fix: detach the state where it enters the next step (`h = h.detach()` before the call,
or `tuple(t.detach() for t in h)` for an LSTM's `(h, c)`): truncated backpropagation through
time, what the training loop means.
"""

from __future__ import annotations

from autograd_doctor.edits import forms
from autograd_doctor.lint.carry import carried, kept_estimate
from autograd_doctor.lint.facts import FileFacts
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD101"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "carried-state-not-detached"
ERROR = "backward-twice"
CATEGORY = "carried-state"

BAD = ('''
import torch
import torch.nn as nn

rnn = nn.GRU(4, 8, batch_first=True)
head = nn.Linear(8, 1)
opt = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.1)
h = torch.zeros(1, 2, 8)
for step in range(3):
    x = torch.randn(2, 5, 4)
    out, h = rnn(x, h)
    loss = head(out).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
from torch import nn


class Cell(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(6, 3)

    def forward(self, x, state):
        return torch.tanh(self.lin(torch.cat([x, state], -1)))


def train(steps=4):
    cell = Cell()
    opt = torch.optim.Adam(cell.parameters())
    state = torch.zeros(1, 3)
    for _ in range(steps):
        state = cell(torch.randn(1, 3), state)
        loss = state.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
''')
GOOD = ('''
import torch
import torch.nn as nn

rnn = nn.GRU(4, 8, batch_first=True)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
h = torch.zeros(1, 2, 8)
for step in range(3):
    h = h.detach()
    out, h = rnn(torch.randn(2, 5, 4), h)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

rnn = nn.GRU(4, 8, batch_first=True)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
for epoch in range(2):
    h = None
    for x in torch.randn(3, 2, 5, 4):
        out, h = rnn(x, h)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, rnn):
        self.rnn = rnn
        self.opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
        self.hidden = None

    def repackage(self):
        if self.hidden is not None:
            self.hidden = self.hidden.detach()

    def fit(self, chunks):
        for x in chunks:
            self.repackage()
            out, self.hidden = self.rnn(x, self.hidden)
            loss = out.pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


Trainer(nn.GRU(4, 8, batch_first=True)).fit(torch.randn(3, 2, 5, 4))
''')


def check(facts: FileFacts) -> Check:
    for found in carried(facts):
        if any(b.retains for b in found.backwards):
            continue  # AGD107: the graph is kept, so it grows instead of failing
        if kept_estimate(found):
            continue  # a moving average kept on an object: stored state (AGD111)
        # An LSTM's state is a pair (h, c); a text guess, as the shape is only known at run time.
        structure = "(T, T)" if "lstm" in reading.text(found.store.value).lower() else "T"
        fix = Suggestion(
            "detach-at-boundary",
            f"detach {found.name} where it enters the next step",
            (Edit("insert-before", found.store,
                  f"{found.name} = {forms.detached(found.name, structure)}"),))
        line = found.backwards[0].call.lineno
        yield Hit(found.store, f"`{found.name}` is fed back into the model every iteration "
                  f"with its graph; the backward on line {line} frees that graph, so the "
                  f"next iteration's backward fails (backward through the graph a second "
                  f"time). Detach it where it enters the next step.", found.name, fix)

