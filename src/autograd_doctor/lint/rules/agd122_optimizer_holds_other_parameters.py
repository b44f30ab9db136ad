"""The optimizer holds parameters the loss never reaches: a model replaced after the
optimizer was built, or an optimizer over the wrong model.

What it finds: an optimizer built over `model.parameters()`, and later, before training,
`model` (or a part of it, `model.fc`) is bound to a newly built model (`model = Net()`,
`model.fc = nn.Linear(...)`, `copy.deepcopy(...)`) without a new optimizer, or a method of
the model (or a helper handed it) called then binds one of its attributes to a new parameter
or module (`self.gate = nn.Parameter(...)` in `model.init_gate(prior)`); or an optimizer
whose models no backward call of the file ever reaches (a teacher instead of the student).

Why it breaks training: the optimizer keeps the parameters it was given. The new ones
receive gradients that no optimizer applies, the old ones receive none: training runs, and
the model that matters never changes. Nothing fails.

The fix: build the optimizer after the model is final (or over the model that learns).
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.cuts import cuts, reached
from autograd_doctor.lint.rules import Check, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD122"
NEEDS = ("backward",)  # words a file must contain for the rule to read it
NAME = "optimizer-holds-other-parameters"
ERROR = "silent-no-grad"
CATEGORY = "optimizer-other-model"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model[2] = nn.Linear(8, 3)
for step in range(5):
    loss = nn.functional.cross_entropy(model(torch.randn(16, 4)), torch.randint(0, 3, (16,)))
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

teacher, student = nn.Linear(4, 3), nn.Linear(4, 3)
opt = torch.optim.Adam(teacher.parameters())
for step in range(5):
    x = torch.randn(16, 4)
    with torch.no_grad():
        target = teacher(x).softmax(-1)
    loss = -(target * student(x).log_softmax(-1)).sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn


class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Parameter(torch.zeros(4))
        self.fc = nn.Linear(4, 1)

    def init_gate(self, prior):
        self.gate = nn.Parameter(prior.log())

    def forward(self, x):
        return self.fc(x * torch.sigmoid(self.gate))


model = Gated()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model.init_gate(torch.full((4,), 0.5))
for step in range(5):
    loss = model(torch.randn(16, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''')
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 10))
model[2] = nn.Linear(8, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model = model.train()
for step in range(5):
    loss = nn.functional.cross_entropy(model(torch.randn(16, 4)), torch.randint(0, 3, (16,)))
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn


class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Parameter(torch.zeros(4))
        self.fc = nn.Linear(4, 1)

    def init_gate(self, prior):
        self.gate = nn.Parameter(prior.log())

    def forward(self, x):
        return self.fc(x * torch.sigmoid(self.gate))


model = Gated()
model.init_gate(torch.full((4,), 0.5))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    loss = model(torch.randn(16, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''', '''
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
groups = [model[0], model[2]]
opt = torch.optim.SGD([{"params": g.parameters(), "lr": 0.1 / (i + 1)}
                       for i, g in enumerate(groups)])
for step in range(5):
    loss = model(torch.randn(16, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''')


def check(facts: f.FileFacts) -> Check:
    for scope in f.scopes(facts.tree):
        body = f.body_statements(scope)
        built = [s for s in body if isinstance(s, ast.Assign) and any(
            reading.text(t) in facts.optimizers for t in s.targets)]
        for opt_stmt in built:
            optimizer = next(reading.text(t) for t in opt_stmt.targets
                             if reading.text(t) in facts.optimizers)
            if not _steps(scope, optimizer, opt_stmt):
                continue
            held = facts.optimizers[optimizer]
            inside = _rebuilt_by_call(facts, body, built, opt_stmt, held)
            if inside is not None:
                call, assign = inside
                name = reading.text(assign.targets[0])
                yield Hit(assign, f"`{name}` gets new parameters here, in a call made on line "
                          f"{call.lineno} after `{optimizer}` (line {opt_stmt.lineno}) was "
                          f"given the old ones: the optimizer never updates the new ones. "
                          f"Build the optimizer after this call.", name, Suggestion(
                              "optimizer-params", "build the optimizer after the model", ()))
                continue
            replaced = _replaced(facts, body, built, opt_stmt, held)
            if replaced is not None:
                name = reading.text(replaced.targets[0])
                yield Hit(replaced, f"`{name}` is rebuilt here, after `{optimizer}` (line "
                          f"{opt_stmt.lineno}) was given the old parameters: the optimizer "
                          f"never updates the new ones. Build the optimizer after the model "
                          f"is final.", name, Suggestion(
                              "optimizer-params", "build the optimizer after the model", ()))
                continue
            # Only whole models named here: a part (`model.online`) runs inside its parent's
            # forward, which a static reader does not follow.
            lost = sorted(m for m in held if "." not in m and "[" not in m
                          and not reached(facts, m) and not _passed(facts, m))
            if lost and len(lost) == len(held) and _something_learns(facts):
                yield Hit(opt_stmt, f"`{optimizer}` holds the parameters of "
                          f"`{', '.join(lost)}`, which no backward call reaches: it never "
                          f"changes them, and the model the loss does reach is not in it. "
                          f"Give the optimizer the parameters that learn.", lost[0],
                          Suggestion("optimizer-params", "optimize the model the loss reaches",
                                     ()))


def _steps(scope: ast.AST, optimizer: str, after: ast.stmt) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr == "step" and reading.text(n.func.value) == optimizer
               and n.lineno > after.lineno for n in f.own(scope))


def _replaced(facts: f.FileFacts, body: list[ast.stmt], built: list[ast.Assign],
              opt_stmt: ast.stmt, held: set[str]) -> ast.Assign | None:
    """A later statement that binds a held model (or part of it) to a new model, with no
    optimizer built after it."""
    for stmt in body:
        if stmt.lineno <= opt_stmt.lineno or not isinstance(stmt, ast.Assign):
            continue
        names = [reading.text(t) for t in stmt.targets]
        if not any(n == m or n.startswith((m + ".", m + "[")) for n in names for m in held):
            continue
        if not _builds_model(facts, stmt.value):
            continue
        if any(other.lineno > stmt.lineno for other in built):
            continue
        return stmt
    return None


def _rebuilt_by_call(facts: f.FileFacts, body: list[ast.stmt], built: list[ast.Assign],
                     opt_stmt: ast.stmt, held: set[str]
                     ) -> tuple[ast.stmt, ast.Assign] | None:
    """A later call, with no optimizer built after it, of a method of a held model or a
    helper handed one (`model.init_edge_gates(prior)`, `reinit(model)`) that binds an
    attribute to a new parameter or module (`self.edge_logit = nn.Parameter(...)`)."""
    def is_held(node: ast.expr) -> bool:
        text = reading.text(node)
        return any(text == m or text.startswith((m + ".", m + "[")) for m in held)

    for stmt in body:
        if stmt.lineno <= opt_stmt.lineno or any(o.lineno > stmt.lineno for o in built) or \
                not isinstance(stmt, (ast.Expr, ast.Assign)):
            continue
        for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)):
            func = call.func
            if isinstance(func, ast.Attribute) and is_held(func.value):
                helper = facts.functions.get(func.attr)  # `model.init_gate(prior)`
            elif any(is_held(a) for a in call.args):
                helper = facts.functions.get(reading.text(func))  # `reinit(model)`
            else:
                continue
            if helper is None:
                continue
            for inner in f.body_statements(helper):
                if isinstance(inner, ast.Assign) and all(
                        isinstance(t, ast.Attribute) for t in inner.targets) and (
                        isinstance(inner.value, ast.Call) and reading.text(
                            inner.value.func) in f.PARAMETER_CALLS
                        or _builds_model(facts, inner.value)):
                    return stmt, inner
    return None


def _builds_model(facts: f.FileFacts, value: ast.expr) -> bool:
    """`nn.Linear(...)`, `Net()`, `copy.deepcopy(m)`, `make_model()` (a helper returning
    one): a model with new parameters."""
    if not isinstance(value, ast.Call):
        return False
    func = reading.text(value.func)
    if func.endswith("deepcopy") or func in facts.model_classes:
        return True
    if func.startswith(("nn.", "torch.nn.")) and func not in ("nn.Parameter",
                                                              "torch.nn.Parameter"):
        return True
    helper = facts.functions.get(func)
    if helper is None:
        return False
    returns = [n.value for n in f.own(helper) if isinstance(n, ast.Return) and n.value]
    made = {reading.text(t) for s in f.body_statements(helper) if isinstance(s, ast.Assign)
            and _builds_model(facts, s.value) for t in s.targets}
    return any(_builds_model(facts, r) or reading.text(r) in made for r in returns)


def _passed(facts: f.FileFacts, model: str) -> bool:
    """Is the model handed to a call (a helper that may run it) anywhere in the file?"""
    return any(isinstance(n, ast.Call) and any(reading.text(a) == model for a in n.args)
               and not f.is_forward(facts, n) for n in ast.walk(facts.tree))


def _something_learns(facts: f.FileFacts) -> bool:
    """Does some backward call reach a model run with recording on? If none does, the
    backward fails first (the no-grad rules say why)."""
    return any(cut.learning for cut in cuts(facts)) or any(
        f.makes_history(facts, b.target) or f.history_statements(
            facts, d := f.flow(f.body_statements(scope), until=b.call), d.of(b.target))
        for scope in f.scopes(facts.tree) for b in f.backwards(scope))
