"""A model forward under `torch.no_grad()` whose result is the only path into a backwarded
loss.

What it finds: `with torch.no_grad(): out = model(x)` (or a call to a function decorated
with `@torch.no_grad()`), then a loss computed from `out` with no other model call, and
backward on it.

Why it breaks training: nothing was recorded under no_grad, so the loss has no graph and
backward raises "element 0 of tensors does not require grad and does not have a grad_fn".

The fix: run the forward that training needs outside the no_grad block (keep no_grad only
for evaluation, or for a target that must not learn).
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD109"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "forward-under-no-grad"
ERROR = "no-grad-fn"
CATEGORY = "no-grad-block"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
    with torch.no_grad():
        logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

teacher = nn.Linear(4, 2)
student = nn.Linear(4, 2)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(8, 4)
    with torch.no_grad():
        target = teacher(x).softmax(-1)
    loss = -(target * student(x).log_softmax(-1)).sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn
import torch.nn.functional as F

backbone = nn.Linear(4, 6).requires_grad_(False)
head = nn.Linear(6, 2)
opt = torch.optim.SGD(head.parameters(), lr=0.1)


@torch.no_grad()
def extract(net, x):
    return net(x)


for step in range(3):
    loss = F.cross_entropy(head(extract(backbone, torch.randn(8, 4))), torch.zeros(8).long())
    opt.zero_grad()
    loss.backward()
    opt.step()
''')


def check(facts: f.FileFacts) -> Check:
    for scope in f.scopes(facts.tree):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                scope.name in facts.no_grad_functions:
            continue
        body = f.body_statements(scope)
        for back in f.backwards(scope):
            if f.under_no_grad(scope, back.call):
                continue
            defs = f.flow(body, until=back.call)
            chain = [defs.by_id[i] for i in defs.of(back.target) if i in defs.by_id]
            cut = [s for s in chain if _forward_without_grad(facts, scope, s)]
            if not cut or f.makes_history(facts, back.target) or any(
                    f.makes_history(facts, f.value_of(s)) for s in chain
                    if s not in cut):
                continue
            stmt = min(cut, key=lambda s: s.lineno)
            name = reading.text(reading.targets(stmt)[0]) if reading.targets(stmt) else ""
            yield Hit(stmt, f"`{name}` comes from a forward run without recording a graph "
                      f"(torch.no_grad), and it is the only way into the loss backwarded on "
                      f"line {back.call.lineno}: backward fails (does not require grad). Run "
                      f"this forward outside no_grad.", name,
                      Suggestion("move-out-of-no-grad", "run the forward outside no_grad",
                                 ()))


def _forward_without_grad(facts: f.FileFacts, scope: ast.AST, stmt: ast.stmt) -> bool:
    value = getattr(stmt, "value", None)
    if value is None:
        return False
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
            value.func.attr == "requires_grad_" and not f.under_no_grad(scope, stmt):
        return False  # made a leaf that requires grad on purpose (gradient caching)
    if f.under_no_grad(scope, stmt) and f.makes_history(facts, value):
        return True
    cuts = [n for n in f.live_nodes(value) if isinstance(n, ast.Call) and (
        reading.text(n.func) in facts.no_grad_functions or isinstance(n.func, ast.Attribute)
        and n.func.attr in facts.no_grad_methods and f.is_forward(facts, n))]
    # Features made without a graph and then fed to a model that learns
    # (`head(extract(backbone, x))`, a linear probe) are an input, not the only way in.
    fed = any(isinstance(n, ast.Call) and n not in cuts and f.is_forward(facts, n)
              and any(c in cuts for a in n.args for c in ast.walk(a))
              for n in ast.walk(value))
    return bool(cuts) and not fed
