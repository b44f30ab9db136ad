"""The same loss backwarded twice in one step.

What it finds: two backward calls on the same expression with nothing recomputing it in
between, the first without `retain_graph` (a duplicated line); or a closure handed to
`optimizer.step(closure)` that backwards a loss computed outside it (LBFGS calls the closure
several times, each backward going through the same graph).

Why it breaks training: the first call frees the graph; the second raises "Trying to
backward through the graph a second time". Were the graph kept, the gradients would be
counted twice.

The fix: keep one backward call.
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Edit, Hit, Suggestion
from autograd_doctor.source import reading

CODE = "AGD114"
NEEDS = ("backward", "grad(")  # words a file must contain for the rule to read it
NAME = "repeated-backward"
ERROR = "backward-twice"
CATEGORY = "repeated-backward"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    loss.backward()
    opt.step()
''',)
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    opt.step()
''',)


def check(facts: f.FileFacts) -> Check:
    yield from _closures(facts)
    for scope, loop, body in f.training_bodies(facts.tree):
        backs = f.backwards(loop)
        for first, second in zip(backs, backs[1:]):
            name = reading.text(first.target)
            if first.retains or name != reading.text(second.target) or not isinstance(
                    first.target, (ast.Name, ast.Attribute)):
                continue
            if any(first.call.lineno < w.lineno <= second.call.lineno  # type: ignore[attr-defined]
                   for w in f.writes(scope, name)) or _branches(body, first, second):
                continue
            defs = f.flow(body, until=first.call)
            made = defs.current.get(name)
            if made is None or not f.history_statements(facts, defs, defs.of(first.target)):
                continue
            stmt = f.statement_of(body, second.call)
            edits = (Edit("delete", stmt),) if isinstance(stmt, ast.Expr) and \
                stmt.value is second.call else ()
            yield Hit(made, f"`{name}` is backwarded on line {first.call.lineno} and again on "
                      f"line {second.call.lineno}; the first call freed its graph, so the "
                      f"second fails. Keep one backward call.", name,
                      Suggestion("remove-duplicate-backward", "keep one backward call", edits))


def _closures(facts: f.FileFacts) -> Check:
    """`def closure(): ...; loss.backward()` where `loss` is computed outside the closure, and
    the closure is handed to `X.step(closure)`: every call backwards the same graph."""
    for scope in f.scopes(facts.tree):
        stepped = {reading.text(n.args[0]) for n in f.own(scope)
                   if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                   and n.func.attr == "step" and len(n.args) == 1}
        for inner in f.own(scope):
            if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                    inner.name not in stepped:
                continue
            for back in f.backwards(inner):
                name = reading.text(back.target)
                if not isinstance(back.target, ast.Name) or f.writes(inner, name):
                    continue
                made = [s for s in f.body_statements(scope) if isinstance(s, ast.Assign)
                        and name in {reading.text(t) for t in reading.targets(s)}
                        and f.makes_history(facts, s.value)]
                if made:
                    yield Hit(made[-1], f"`{name}` is computed once, outside `{inner.name}`, "
                              f"and `{inner.name}` backwards it; the optimizer calls the "
                              f"closure again, and the second backward goes through the "
                              f"graph the first freed. Compute `{name}` inside the closure.",
                              name, Suggestion("recompute-in-closure",
                                               "compute the loss inside the closure", ()))


def _branches(body: list[ast.stmt], first: f.Backward, second: f.Backward) -> bool:
    """Are the two calls in different arms of one if/else (only one of them runs)?"""
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.If) and node.orelse:
                arms = [any(reading.inside(c, s) for s in arm)
                        for c in (first.call, second.call) for arm in (node.body, node.orelse)]
                if arms[0] and arms[3] or arms[1] and arms[2]:
                    return True
    return False
