"""GAN discriminator step on the generator's output without `.detach()`.

What it finds: in one iteration, a first backward (the discriminator's loss) goes through a
model output (`fake = G(z)`), an optimizer steps, and a second backward (the generator's
loss) goes through the same output again; also when each step is a helper of the file that
is handed `fake` and backwards (`self.update_d(real, fake)`, `self.update_g(fake)`).

Why it breaks training: the discriminator's backward frees the generator part of the graph
that both losses share; the generator's backward then walks into it and PyTorch raises
"Trying to backward through the graph a second time". `retain_graph=True` turns that into an
in-place error once the discriminator's optimizer has stepped.

The fix: feed the discriminator `fake.detach()` in its own step: it must not send gradients
into the generator anyway, and the generator's graph stays whole for the generator's step.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD102"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "gan-fake-not-detached"
ERROR = "backward-twice"
CATEGORY = "shared-subgraph"

BAD = ('''
import torch
import torch.nn as nn

G = nn.Linear(2, 4)
D = nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
bce = nn.BCEWithLogitsLoss()
for step in range(3):
    real = torch.randn(8, 4)
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake), torch.zeros(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
''', '''
import torch
import torch.nn as nn


class GANTrainer:
    def __init__(self):
        self.G, self.D = nn.Linear(2, 4), nn.Linear(4, 1)
        self.opt_g = torch.optim.Adam(self.G.parameters())
        self.opt_d = torch.optim.Adam(self.D.parameters())

    def update_d(self, real, fake):
        self.opt_d.zero_grad()
        (self.D(fake).mean() - self.D(real).mean()).backward()
        self.opt_d.step()

    def update_g(self, fake):
        self.opt_g.zero_grad()
        (-self.D(fake).mean()).backward()
        self.opt_g.step()

    def train_step(self, real):
        fake = self.G(torch.randn(8, 2))
        self.update_d(real, fake)
        self.update_g(fake)


trainer = GANTrainer()
for step in range(3):
    trainer.train_step(torch.randn(8, 4))
''')
GOOD = ('''
import torch
import torch.nn as nn

G = nn.Linear(2, 4)
D = nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
bce = nn.BCEWithLogitsLoss()
for step in range(3):
    real = torch.randn(8, 4)
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
''',)


def check(facts: f.FileFacts) -> Check:
    for scope, loop, body in f.training_bodies(facts.tree):
        backs = f.step_backwards(facts, loop)
        for first, second in zip(backs, backs[1:]):
            if first.retains or reading.text(first.target) == reading.text(second.target) \
                    or not (f.steps_between(body, first.call, second.call)
                            or f.steps_inside(first)):
                continue
            shared = f.shared_forward(facts, scope, body, first, second)
            if shared is None:
                continue
            names = [reading.text(t) for t in reading.targets(shared)]
            edits = tuple(Edit("replace", n, f"{reading.text(n)}.detach()")
                          for n in _first_step_reads(body, first, second, names))
            fix = Suggestion("detach-input", f"detach {names[0]} where the first step reads "
                             "it", edits) if edits else None
            yield Hit(shared, f"`{names[0]}` feeds both the backward on line "
                      f"{first.call.lineno} and the one on line {second.call.lineno}; the "
                      f"first frees the graph that made it, so the second fails (backward "
                      f"through the graph a second time). Feed the first step "
                      f"`{names[0]}.detach()`.", names[0], fix)


def _first_step_reads(body: list[ast.stmt], first: f.Backward, second: f.Backward,
                      names: list[str]) -> list[ast.expr]:
    """Reads of the shared value by statements only the first backward reaches."""
    at_first = f.flow(body, until=first.call)
    at_second = f.flow(body, until=second.call)
    only = at_first.of(first.target) - at_second.of(second.target)
    statements = [at_first.by_id[i] for i in only if i in at_first.by_id]
    reads: list[ast.expr] = [n for s in statements for n in f.live_nodes(f.value_of(s))
             if isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load)
             and reading.text(n) in names]
    inline: list[ast.expr] = [n for n in f.live_nodes(first.target)
                              if isinstance(n, (ast.Name, ast.Attribute))
                              and reading.text(n) in names]
    return reads + inline
