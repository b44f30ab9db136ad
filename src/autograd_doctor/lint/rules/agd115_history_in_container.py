"""Tensors with history kept in a container that the next step's loss reads (a memory bank,
a queue of negatives, a cache, a replay buffer).

What it finds: in a loop (or a method called once per step) that calls backward, a value
from the model goes into a list, deque, dict or concatenated tensor that outlives the step
(`queue.append(z)`, `cache[key] = h`, `bank = torch.cat([bank, z])`), and the loss
backwarded in that loop reads the container.

Why it breaks training: the step's backward frees the graph behind the stored value; the
next step's loss reads it again, so its backward walks into the freed graph ("Trying to
backward through the graph a second time"). With `retain_graph=True` it would instead send
gradients into every past step and keep all their graphs alive.

The fix: store the value detached (`queue.append(z.detach())`): what a bank or a cache holds
is a value, not a path for gradients into past steps.
"""

from __future__ import annotations

from autograd_doctor.edits import forms
from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD115"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "history-kept-in-container"
ERROR = "backward-twice"
CATEGORY = "stored-state"
# The stored-state cause's own example (state on a module attribute) is AGD111's.
CAUSE_EXAMPLE = False

BAD = ('''
import collections
import torch
import torch.nn as nn

encoder = nn.Linear(8, 4)
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
queue = collections.deque(maxlen=4)
for step in range(5):
    z = nn.functional.normalize(encoder(torch.randn(16, 8)), dim=1)
    negatives = torch.cat(list(queue)) if queue else torch.zeros(0, 4)
    loss = -(z @ z.t()).mean() + (z @ negatives.t()).exp().mean() if len(queue) else z.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    queue.append(z)
''', '''
import torch
import torch.nn as nn

encoder = nn.Linear(8, 4)
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
bank = torch.zeros(0, 4)
for step in range(5):
    z = encoder(torch.randn(16, 8))
    loss = (z @ bank.t()).mean() + z.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    bank = torch.cat([bank, z])[-32:]
''')
GOOD = ('''
import collections
import torch
import torch.nn as nn

encoder = nn.Linear(8, 4)
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
queue = collections.deque(maxlen=4)
for step in range(5):
    z = nn.functional.normalize(encoder(torch.randn(16, 8)), dim=1)
    negatives = torch.cat(list(queue)) if queue else torch.zeros(0, 4)
    loss = -(z @ z.t()).mean() + (z @ negatives.t()).exp().mean() if len(queue) else z.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    queue.append(z.detach())
''',)


def check(facts: f.FileFacts) -> Check:
    for scope in f.scopes(facts.tree):
        for body_node in f.repeated(scope):
            backs = [b for b in f.backwards(body_node) if not b.retains]
            if not backs:
                continue
            body = f.body_statements(body_node)
            for stmt in body:
                found = f.stored(stmt)
                if found is None or f.under_no_grad(scope, stmt):
                    continue
                name, value = found
                if not f.persists(scope, body_node, name) or any(
                        w is not stmt for w in f.writes(body_node, name)):
                    continue
                defs = f.flow(body, until=stmt)
                if not (f.makes_history(facts, value) or f.history_statements(
                        facts, defs, defs.of(value))):
                    continue
                if not any(name in f.chain_names(f.flow(body, until=b.call), b)
                           for b in backs):
                    continue  # nothing backwarded reads the container: AGD112's growth
                text = reading.text(value)
                fix = Suggestion("detach-on-store", f"store {text} detached",
                                 (Edit("replace", value, forms.detached(text)),))
                yield Hit(stmt, f"`{name}` keeps `{text}` with its graph, and the loss "
                          f"backwarded on line {backs[0].call.lineno} reads `{name}` "
                          f"{f.each_run(body_node)}: the next backward goes through the "
                          f"graph this step's backward freed. Store it detached.", name, fix)
