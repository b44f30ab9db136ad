"""A saved tensor read after the backward that freed it (`out.grad_fn._saved_self`).

What it finds: a read of `grad_fn._saved_*` or `grad_fn.saved_tensors` (outside a custom
Function's own `backward`) after a backward call in the same function, on a value computed
before that backward; or in a helper of the same file (a logging callback, a closure, a
method) that is called after the backward and reads what it was handed or what is kept on
`self`.

Why it breaks: backward frees the tensors a graph saved for it; reading one afterwards raises
"Trying to backward through the graph a second time (or directly access saved tensors after
they have already been freed)".

The fix: read what you need before backward (or keep the value yourself when you compute
it).
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Check, Hit, Suggestion
from autograd_doctor.source import patterns, reading

CODE = "AGD113"
NEEDS_MODEL = False  # it reads the file even where no model can be named
NEEDS = ("_saved", "saved_tensors")  # words a file must contain for the rule to read it
NAME = "saved-tensor-after-backward"
ERROR = "saved-tensor-access"
CATEGORY = "saved-tensor-access"

BAD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    out = torch.sigmoid(model(torch.randn(8, 4)))
    loss = out.mean()
    opt.zero_grad()
    loss.backward()
    saved = out.grad_fn._saved_result
    opt.step()
''', '''
import torch
import torch.nn as nn


def log_activations(out):
    print("mean activation", out.grad_fn._saved_result.mean().item())


model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    out = torch.sigmoid(model(torch.randn(8, 4)))
    opt.zero_grad()
    out.mean().backward()
    opt.step()
    log_activations(out)
''')
GOOD = ('''
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    out = torch.sigmoid(model(torch.randn(8, 4)))
    saved = out.grad_fn._saved_result
    loss = out.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
''',)


def check(facts: f.FileFacts) -> Check:
    yield from _in_helpers(facts)
    for scope, loop, body in f.training_bodies(facts.tree):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and scope.name in (
                "backward", "jvp"):
            continue
        backs = [b for b in f.backwards(loop) if not b.retains]
        for stmt in body:
            reads = [n for n in f.nodes_of(stmt) if patterns.is_saved_read(n)
                     and "grad_fn" in reading.text(n)]
            for read in reads:
                before = [b for b in backs if b.call.lineno < read.lineno]  # type: ignore[attr-defined]
                if not before:
                    continue
                back = before[-1]
                defs = f.flow(body, until=back.call)
                owner = reading.text(read).split(".grad_fn")[0]
                if owner not in defs.current or not f.writes(loop, owner) or any(
                        w.lineno > back.call.lineno  # type: ignore[attr-defined]
                        and w.lineno < read.lineno  # type: ignore[attr-defined]
                        for w in f.writes(loop, owner)):
                    continue
                yield Hit(read, f"`{reading.text(read)}` is read after the backward on line "
                          f"{back.call.lineno}, which freed the tensors the graph saved: "
                          f"the read fails. Read it before backward.", reading.text(read),
                          Suggestion("read-before-backward", "read it before backward", ()))


def _in_helpers(facts: f.FileFacts) -> Check:
    """Helpers called after a backward that read saved tensors of what they were given."""
    readers = {name: reads for name, function in facts.functions.items()
               if name not in ("backward", "jvp") and (reads := _outside_reads(function))}
    if not readers:
        return
    seen: set[int] = set()
    for _scope, loop, body in f.training_bodies(facts.tree):
        backs = [b for b in f.backwards(loop) if not b.retains]
        for call in (n for s in body for n in f.nodes_of(s) if isinstance(n, ast.Call)):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else (
                call.func.id if isinstance(call.func, ast.Name) else "")
            before = [b for b in backs if b.call.lineno < call.lineno]
            if name not in readers or not before:
                continue
            for read in readers[name]:
                if id(read) in seen:
                    continue
                seen.add(id(read))
                yield Hit(read, f"`{reading.text(read)}` is read in `{name}`, called on line "
                          f"{call.lineno} after the backward on line "
                          f"{before[-1].call.lineno}, which freed the tensors the graph "
                          f"saved: the read fails. Read it before backward.",
                          reading.text(read),
                          Suggestion("read-before-backward", "read it before backward", ()))


def _outside_reads(function: f.Function) -> list[ast.AST]:
    """Saved-tensor reads on the function's arguments or on `self`, in its own code."""
    given = set(reading.parameters(function))
    found: list[ast.AST] = []
    for node in f.own(function):
        if patterns.is_saved_read(node) and isinstance(node, ast.Attribute):
            root: ast.expr = node
            while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if isinstance(root, ast.Name) and (root.id in given) and root.id != "ctx" and \
                    not f.writes(function, root.id):
                found.append(node)
    return found
