"""A model the optimizer trains reaches the loss only through a cut, while the rest learns.

What it finds: a model whose parameters an optimizer of the file holds runs in a training
step, but its output reaches every backwarded loss only through `.detach()`, `.data`,
`.item()`, NumPy or a no_grad block (`loss = policy_loss + 0.5 * value_loss.item()`), while
something else in the loss still has a graph.

Why it breaks training: backward runs without an error, and the cut model never receives a
gradient: its parameters stay where they started while the loss goes down on the rest.

The fix: keep its graph into the loss (drop the `.detach()`/`.item()`, compute in torch, run
it outside no_grad). Nothing to fix if it is not meant to learn: then leave it out of the
optimizer.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.cuts import (
    cuts,
    fix_for,
    optimized,
    reached,
    regrad_expr,
    switched_on,
)
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD119"
NEEDS = ("backward",)  # words a file must contain for the rule to read it
NAME = "optimized-model-cut-from-loss"
ERROR = "silent-no-grad"
CATEGORY = "cut-graph"

BAD = ('''
import torch
import torch.nn as nn

body = nn.Linear(4, 8)
policy_head, value_head = nn.Linear(8, 2), nn.Linear(8, 1)
params = [*body.parameters(), *policy_head.parameters(), *value_head.parameters()]
opt = torch.optim.Adam(params)
for step in range(5):
    h = body(torch.randn(16, 4))
    policy_loss = -policy_head(h).log_softmax(-1)[:, 0].mean()
    value_loss = (value_head(h) - 1).pow(2).mean()
    loss = policy_loss + 0.5 * value_loss.item()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

G, D = nn.Linear(2, 4), nn.Linear(4, 1)
opt_g, opt_d = torch.optim.Adam(G.parameters()), torch.optim.Adam(D.parameters())
for step in range(3):
    fake = G(torch.randn(8, 2))
    d_loss = D(fake.detach()).mean() - D(torch.randn(8, 4)).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = -D(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
''', '''
import torch
import torch.nn as nn

student, teacher = nn.Linear(4, 1), nn.Linear(4, 1)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(8, 4)
    loss = (student(x) - teacher(x).detach()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''')


def check(facts: f.FileFacts) -> Check:
    seen: set[str] = set()
    for cut in cuts(facts):
        if not (cut.learning or cut.regrad):
            continue  # nothing learns: the backward fails instead (AGD109, AGD116-AGD118)
        copy = regrad_expr(cut.at) or {reading.text(t) for t in reading.targets(
            cut.at)} & switched_on(f.body_statements(cut.scope))
        if copy and not any(isinstance(c, ast.Call) and f.is_forward(facts, c)
                            for c in ast.walk(cut.at)):
            continue  # a copy of the loss made to require grad: AGD108
        model = optimized(facts, cut.model)
        if not model or model in seen or reached(facts, model):
            continue
        if not cut.regrad and not _shares_an_optimizer_with_a_learner(facts, model):
            continue  # its optimizer trains nothing the loss reaches: AGD122's wrong model
        seen.add(model)
        strategy, description, edits = fix_for(cut)
        names = [reading.text(t) for t in reading.targets(cut.at)]
        yield Hit(cut.at, f"`{model}` is trained by the optimizer, but its output reaches the "
                  f"loss backwarded on line {cut.back.call.lineno} only through "
                  f"`{reading.text(cut.node)}`: it never receives a gradient while the rest "
                  f"learns. Keep its graph into the loss.", names[0] if names else model,
                  Suggestion(strategy, description, tuple(Edit(*e) for e in edits)))


def _shares_an_optimizer_with_a_learner(facts: f.FileFacts, model: str) -> bool:
    """Is `model` in an optimizer together with something a backward call reaches (the
    rest learns, this part does not)?"""
    for held in facts.optimizers.values():
        if any(model == m or model.startswith(m + ".") for m in held) and any(
                reached(facts, m) or any(reached(facts, other) for other in facts.models
                                         if other.startswith(m + "."))
                for m in held):
            return True
    return False
