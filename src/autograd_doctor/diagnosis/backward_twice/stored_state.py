"""Stored state: a tensor with history is kept on a module attribute, buffer, global or
container and read again later (a memory bank, a cache, an EMA, a list never cleared).

Storing the tensor also stores the graph that produced it. The backward of the step that
stored it frees that graph; a later step reads the stored tensor, and its backward reaches
the freed graph again.

`retain_graph=True` would keep every stored step's graph alive and backpropagate into past
batches (memory grows with every step, and the optimizer's in-place updates soon turn it
into the in-place error). Store the value without its history: `.detach()` where it is
stored. A memory bank, cache or moving average is data for later steps, not a path for
gradients.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

import torch

from autograd_doctor.diagnosis.backward_twice.evidence import (
    CONTAINER,
    KEPT,
    Evidence,
    Suspect,
    claim,
    describe_call,
    detach_where_handed_in,
    owner_class,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import Insert, Operation, Remedy, Replace, replace_node
from autograd_doctor.edits.strategies import detached_value
from autograd_doctor.graph.objects import resolve
from autograd_doctor.source import patterns, places, reading

CATEGORY = "stored-state"
CULPRIT = "self.memory"
CULPRIT_LINE = 15  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.memory = torch.zeros(1, 4)

    def forward(self, x):
        out = self.fc(x) + self.memory
        self.memory = out.mean(0, keepdim=True)
        return out


model = Model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("self.memory = out.mean(0, keepdim=True)",
                       "self.memory = out.mean(0, keepdim=True).detach()")

def match(ev: Evidence) -> Claim | None:
    suspect = ev.primary
    if ev.root_stale or ev.same_step or suspect is None or ev.storage not in (KEPT,
                                                                               CONTAINER):
        return None
    update = _parameter_update(ev, suspect)
    if update is not None:
        return _updated_parameter(ev, suspect, *update)
    site = _store_site(ev, suspect)
    buffer = suspect.kind == "container-element" and _consumed_whole(ev, suspect)
    remedy = (_clear_after_step(ev, suspect) if buffer else
              _detach_on_store(site, suspect) if site else None)
    if buffer:
        # Read whole, it is usually a per-update buffer to empty; a bank kept on purpose
        # (prototypes remembered across episodes) is stored detached instead. Emptying is
        # tried first: detaching a buffer that is the update's own gradient path starves
        # the model, which verification sees.
        detach = _detach_on_store(site, suspect) if site else None
        said = _uncleared(ev, suspect, site, remedy or detach)
        return replace(said, alternatives=(detach,) if remedy and detach else ())
    where = {"attribute": "an attribute", "global": "a global variable",
             "container-element": "a container"}.get(suspect.kind, "a variable kept between calls")
    assigned = (site[0], site[1].lineno) if site else None
    at = f" at {places.user_path(site[0])}:{site[1].lineno}" if site else ""
    why = (
        f"`{suspect.expression}` keeps a tensor with its graph in {where}{at}, and a later "
        f"step reads it again. {describe_call(ev, 'freeing').capitalize()} freed that "
        f"graph, and {describe_call(ev, 'failing')} reached it again through the stored "
        f"value."
    )
    hint = (
        "Store it with `.detach()`: what a later step needs is the value, not a path for "
        "gradients into past batches. retain_graph=True would keep every past step's graph "
        "alive (memory grows each step) and fail with the in-place error once the optimizer "
        "updates the weights."
    )
    named = suspect
    if site and suspect.kind == "attribute" and _keyed(ev, suspect, site):
        named = replace(suspect, kind="container-element")
    said = claim(ev, CATEGORY, why, hint, named, assigned, remedy,
                 expression=_as_stored(site) if site and named.kind == "container-element"
                 else _class_spelled(site, suspect) if site else None)
    # State that also carries gradients within a step (handed to the model, updated in its
    # forward) cannot be stored detached; cut it where each step starts instead. A value
    # cached on first use (`if self.ab is None: self.ab = ...`) from weights that learn is
    # stale however it is stored: computed at every call instead (verification picks).
    others = tuple(r for r in (detach_where_handed_in(ev, suspect),
                               _uncached(site) if site else None) if r is not None)
    if not others:
        return said
    return replace(said, alternatives=others) if remedy else \
        replace(said, remedy=others[0], alternatives=others[1:])


def _uncached(site: tuple[str, ast.stmt, ast.expr]) -> Remedy | None:
    """The store made unconditional where it sits alone under an `if` that asks whether it
    was made already (`if self.ab is None:`, `if not hasattr(self, "ab"):`)."""
    file, stmt, _ = site
    tree = reading.parse(file)
    # The store ends the guarded block (`if k not in memo:` with the value's inputs made
    # first, then `memo[k] = ...`).
    guard = next((n for n in ast.walk(tree) if isinstance(n, ast.If) and n.body[-1] is stmt
                  and not n.orelse), None) if tree is not None else None
    targets = list(reading.targets(stmt))
    if guard is None or not targets:
        return None
    written = reading.text(targets[0])
    attribute = written.rsplit(".", 1)[-1]
    tested = {reading.text(n) for n in ast.walk(guard.test)}
    asks = written in tested or any(
        isinstance(n, ast.Constant) and n.value == attribute for n in ast.walk(guard.test))
    if isinstance(targets[0], ast.Subscript):  # `if k not in memo:`, `if memo.get(k) is None:`
        asks = asks or {reading.text(targets[0].value), reading.text(targets[0].slice)} <= tested
    if not asks:
        return None
    indent = reading.indent_of(file, guard.lineno)
    first = guard.body[0].lineno
    body = reading.lines(file)[first - 1:(stmt.end_lineno or stmt.lineno)]
    inner = reading.indent_of(file, first)
    text = "".join(indent + line[len(inner):] if line.startswith(inner) else line
                   for line in body).rstrip("\n")
    return Remedy("recompute-in-loop", f"compute {written} at every call instead of once",
                  file, guard.lineno, (Replace(file, guard.lineno, 0,
                                               stmt.end_lineno or stmt.lineno,
                                               len(body[-1].rstrip("\n")), text),))


def _parameter_update(ev: Evidence,
                      suspect: Suspect) -> tuple[str, ast.For, ast.stmt] | None:
    """A parameter that has history was written in place outside no_grad: an EMA teacher
    updated with `for pt, ps in zip(teacher.parameters(), ...): pt.copy_(...)`. The loop."""
    value = resolve(suspect.expression, ev.live_scopes)
    if not isinstance(value, torch.nn.Parameter):
        return None
    owner = suspect.expression.rsplit(".", 1)[0].split(".")[0]
    files = [f.f_code.co_filename for f in ev.failure.frames]
    if ev.freeing is not None:
        files += [f.file for f in ev.freeing.frames]
    for file in dict.fromkeys(files):
        tree = reading.parse(file)
        for loop in (n for n in ast.walk(tree) if isinstance(n, ast.For)) if tree else ():
            if f"{owner}." not in reading.text(loop.iter) or "parameters()" not in reading.text(
                    loop.iter):
                continue
            for stmt in (s for s in ast.walk(loop) if isinstance(s, ast.Expr)):
                call = stmt.value
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and call.func.attr in patterns.INPLACE_UPDATES:
                    return file, loop, stmt
    return None


def _updated_parameter(ev: Evidence, suspect: Suspect, file: str, loop: ast.For,
                       write: ast.stmt) -> Claim:
    indent = reading.indent_of(file, loop.lineno)
    end = loop.end_lineno or loop.lineno
    body = "".join(reading.lines(file)[loop.lineno - 1: end])
    wrapped = indent + "with torch.no_grad():\n" + "".join(
        "    " + line if line.strip() else line for line in body.splitlines(keepends=True))
    last = reading.lines(file)[end - 1].rstrip("\n")
    remedy = Remedy(
        strategy="detach-on-store",
        description="update the parameters under torch.no_grad()",
        file=file,
        line=loop.lineno,
        operations=(Replace(file, loop.lineno, 0, end, len(last), wrapped.rstrip("\n")),),
    )
    why = (
        f"`{suspect.expression}` is a parameter written in place at "
        f"{places.user_path(file)}:{write.lineno} outside `torch.no_grad()`, from tensors "
        f"that have history, so it now keeps a graph (an EMA teacher is the usual case). "
        f"{describe_call(ev, 'freeing').capitalize()} freed that graph and "
        f"{describe_call(ev, 'failing')} reached it again through the parameter."
    )
    hint = ("Update it under `torch.no_grad()`: a moving average is data, not a path for "
            "gradients.")
    return claim(ev, CATEGORY, why, hint, suspect, (file, write.lineno), remedy)


def _consumed_whole(ev: Evidence, suspect: Suspect) -> bool:
    """A per-update buffer (REINFORCE's saved log-probs) rather than a bank of past values:
    the whole list is read each update (`torch.stack(buf)`, `for x in buf`, `zip(buf, ...)`),
    not a slice or one element of it. Detaching such a buffer would stop the learning; it
    has to be emptied after each update instead."""
    root = suspect.sightings[0].binding.root
    attr = root.rsplit(".", 1)[-1]
    files = {f.f_code.co_filename for f in ev.failure.frames}
    if ev.freeing is not None:
        files |= {f.file for f in ev.freeing.frames}
    trees = [t for t in (reading.parse(f) for f in files) if t is not None]
    if any(patterns.trims(tree, attr) for tree in trees):
        return False  # a bank that keeps its last K entries on purpose
    return any(patterns.reads_whole(tree, attr) for tree in trees)


def _clear_after_step(ev: Evidence, suspect: Suspect) -> Remedy | None:
    """`buf.clear()` right after the update (the optimizer step that follows the backward)."""
    site = ev.failing.site
    root = suspect.sightings[0].binding.root
    if site is None:
        return None
    scope = site.scope
    backward = site.statement
    if scope is None or backward is None:
        return None
    name = _visible_name(ev, root, scope)
    if name is None:
        return None
    block = reading.block_of(scope, backward) or []
    last = backward
    for stmt in block[block.index(backward) + 1:] if backward in block else []:
        if ".step(" not in reading.line_text(site.file, stmt.lineno):
            break
        last = stmt
    after = (last.end_lineno or last.lineno) + 1
    return Remedy("clear-after-step", f"empty {name} after each update", site.file,
                  after, (Insert(site.file, after, f"{name}.clear()",
                                 reading.indent_of(site.file, backward.lineno)),))


def _visible_name(ev: Evidence, root: str, scope: ast.AST) -> str | None:
    """How the failing frame can reach the container (`policy.saved_log_probs`)."""
    held = resolve(root, ev.live_scopes)
    if held is None:
        return None
    attr = root.rsplit(".", 1)[-1]
    for name in sorted(reading.names_in(scope), key=len):
        if name.rsplit(".", 1)[-1] == attr and resolve(name, ev.live_scopes) is held:
            return name
    return root if root.split(".")[0] in ev.failure.frames[0].f_locals else None


def _uncleared(ev: Evidence, suspect: Suspect, site: tuple[str, ast.stmt, ast.expr] | None,
               remedy: Remedy | None) -> Claim:
    name = _as_stored(site) if site else suspect.expression
    why = (
        f"`{name}` collects tensors with history for each update and is read as a whole by "
        f"the loss, but it is never emptied: the next update's loss also goes through the "
        f"entries of the previous one, whose graph "
        f"{describe_call(ev, 'freeing')} already freed."
    )
    hint = ("Empty it after each update (what `del policy.saved_log_probs[:]` does in "
            "PyTorch's REINFORCE example); if it is a bank meant to last (what was seen in "
            "earlier episodes), store the entries detached instead. Detaching entries that "
            "are the update's own gradient path would stop the learning; retain_graph=True "
            "would train every update on all past episodes again.")
    assigned = (site[0], site[1].lineno) if site else None
    return claim(ev, CATEGORY, why, hint, suspect, assigned, remedy, expression=name)


def _keyed(ev: Evidence, suspect: Suspect, site: tuple[str, ast.stmt, ast.expr]) -> bool:
    """An attribute holding a dict or list of tensors, written one entry at a time
    (`self.soft_targets[batch_idx] = ...`): the entry, as the store writes it, is what kept
    the graph (a tensor written by rows is the attribute itself)."""
    held = resolve(suspect.expression, ev.live_scopes)
    return isinstance(held, (dict, list)) and any(
        isinstance(t, ast.Subscript) for t in reading.targets(site[1]))


def _as_stored(site: tuple[str, ast.stmt, ast.expr]) -> str:
    """The container as the store statement writes it: `history` for `history.append(x)`,
    `_CACHE[key]` for `_CACHE[key] = x`."""
    file, stmt, _ = site
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(
            stmt.value.func, ast.Attribute):
        return reading.segment(file, stmt.value.func.value)
    targets = reading.targets(stmt)
    target = next((t for t in targets if isinstance(t, ast.Subscript)), targets[0])
    return reading.segment(file, target)


def _class_spelled(site: tuple[str, ast.stmt, ast.expr], suspect: Suspect) -> str | None:
    """A container on the class written through its name (`Anchors._cache[key] = v` for
    what the loop reaches as `model.anchors._cache`): the name the class writes."""
    attribute = suspect.expression.rsplit(".", 1)[-1]
    for target in reading.targets(site[1]):
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) \
                and target.value.attr == attribute and not reading.text(
                    target.value).startswith("self."):
            return reading.text(target.value)
    return None


def _store_site(ev: Evidence, suspect: Suspect) -> tuple[str, ast.stmt, ast.expr] | None:
    """The statement that put the value with history where it was found."""
    binding = suspect.sightings[0].binding
    container = suspect.kind == "container-element"
    expr = binding.root if container else suspect.expression
    scopes: list[tuple[str, ast.AST, str]] = []
    if suspect.scope is not None:
        scopes.append((suspect.frame.file, suspect.scope, expr))
    if "." in expr:
        owner = owner_class(expr, suspect, ev.live_scopes)
        if owner is not None:
            scopes.append((owner[0], owner[1], "self." + expr.rsplit(".", 1)[1]))
            # kept on the class itself, written through its name (`Anchors._cache[k] = v`)
            scopes.append((owner[0], owner[1], f"{owner[1].name}.{expr.rsplit('.', 1)[1]}"))
    tree = reading.parse(suspect.frame.file)
    if tree is not None and suspect.kind in ("global", "container-element"):
        scopes.append((suspect.frame.file, tree, expr))
    found: list[tuple[str, ast.stmt, ast.expr]] = []
    for file, scope, name in scopes:
        for node in [scope, *ast.walk(scope)]:
            if not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for stmt, stored in reading.container_stores(node, name):
                found.append((file, stmt, stored))
            if not container:
                for stmt in reading.stores(node, name):
                    value = reading.value_span(stmt)
                    if value is not None:
                        found.append((file, stmt, value))
    useful = [f for f in found if not patterns.creates(f[2]) and not _in_init(f[0], f[1])]
    useful = useful or [f for f in found if not patterns.creates(f[2])]
    return useful[-1] if useful else None


def _in_init(file: str, stmt: ast.stmt) -> bool:
    tree = reading.parse(file)
    function = reading.enclosing_function(tree, stmt) if tree is not None else None
    return function is not None and function.name == "__init__"


def _stored_part(value: ast.expr, suspect: Suspect) -> ast.expr:
    """The part of a stored tuple or list that holds the tensor with history:
    `memory.append((out, y))` with the culprit at `memory[i][0]` detaches `out` alone."""
    inner = suspect.expression[len(suspect.sightings[0].binding.root):]
    found = re.findall(r"\[(-?\d+)\]", inner)
    if suspect.kind == "container-element" and len(found) >= 2 and isinstance(
            value, (ast.Tuple, ast.List)):
        position = int(found[1])
        if -len(value.elts) <= position < len(value.elts):
            return value.elts[position]
    return value


def _detach_on_store(site: tuple[str, ast.stmt, ast.expr], suspect: Suspect) -> Remedy:
    file, stmt, value = site
    targets = reading.targets(stmt)
    # An entry written into the container (`cache[k] = v`, `bank.append(v)`) is one
    # element, whatever the container holds as a whole.
    entry = any(isinstance(t, ast.Subscript) for t in targets) or not targets
    structure = suspect.structure if suspect.kind != "container-element" and not entry \
        else "T"
    ops: tuple[Operation, ...]
    if isinstance(stmt, ast.Assign) and len(targets) > 1 and not isinstance(
            stmt.targets[0], ast.Subscript):
        # `out, self.h = f(x)`: detach the stored name right after the statement.
        name = next((reading.text(t) for t in targets
                     if reading.text(t).endswith(suspect.expression.rsplit(".", 1)[-1])),
                    reading.text(targets[-1]))
        after = (stmt.end_lineno or stmt.lineno) + 1
        ops = (Insert(file, after, f"{name} = {detached(name, structure)}",
                      reading.indent_of(file, stmt.lineno)),)
    else:
        part = _stored_part(value, suspect)
        ops = (replace_node(file, part, detached_value(file, part, structure)),)
    return Remedy(
        strategy="detach-on-store",
        description="store the value without its graph (.detach())",
        file=file,
        line=stmt.lineno,
        operations=ops,
    )
