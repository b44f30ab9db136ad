"""Evidence for parameters that never receive a gradient: which of an optimizer's
parameters got nothing over the steps watched (capture.gradients), whether that is the whole
model or a whole top-level part of it (an alarm) or a few parameters (a note), and what the
latest backward graph reached instead.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

import torch

from autograd_doctor.capture.gradients import Observation, Watched, fingerprint
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.capture.tracer import Crossing, Trace
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.operations import Remedy
from autograd_doctor.graph.names import parameter_names, steps
from autograd_doctor.graph.walk import leaves, walk
from autograd_doctor.source import patterns, places, reading
from autograd_doctor.source.places import FrameInfo


@dataclass
class NoGrad:
    """Parameters of one optimizer that got no gradient in the steps observed."""

    optimizer: Any  # None once the optimizer is gone (decided at exit)
    steps: int
    missing: list[str]  # parameter names (or shapes, when unnamed)
    total: int
    modules: list[str]  # modules all of whose parameters got nothing
    alarm: bool  # the whole model or a whole top-level part of it (else a few parameters)
    records: tuple[BackwardRecord, ...]
    reached: list[str]  # parameters (named if known) the latest backward graph reached
    reached_outside: list[str]  # ... of them, those this optimizer does not hold
    scopes: list[dict[str, Any]]
    files: list[str]
    holders: set[str] = field(default_factory=set)  # names that held the optimizer
    missing_ids: set[int] = field(default_factory=set)  # id() of the starved parameters
    trace: Trace | None = None  # a replay's full trace
    cut: Crossing | None = None  # where a replay saw the starved parameters leave autograd
    frames: list[FrameInfo] = field(default_factory=list)  # the user's stack at step 1
    built_at: tuple[FrameInfo, ...] = ()  # where a replay saw the optimizer built
    # id() of starved parameters left frozen where `requires_grad` (or `requires_grad_`) was
    # assigned as a plain attribute of their module (or of themselves): meant to learn.
    meant: set[int] = field(default_factory=set)
    # Learnable tensors the user's code declared (a loss module's weights, a logit scale)
    # that the loss trains and no optimizer steps: by name, with their optimizer getting
    # everything it holds.
    left_out: list[str] = field(default_factory=list)
    left_out_owner: str = ""  # the module declaring them (`self.criterion`), or the tensor
    # id() of starved parameters in a group built for their module that stayed frozen from
    # the first step to the end, while the optimizer's other groups trained.
    frozen: set[int] = field(default_factory=set)
    frozen_modules: list[str] = field(default_factory=list)  # those groups' modules

    def sibling_cuts(self) -> list[Crossing]:
        """Other statements where starved parameters left autograd the same way as at
        `cut` (`fast_w = head.weight.detach()...` and `fast_b = head.bias.detach()...`):
        one root cause, and the fix has to undo every one of them."""
        cut, trace = self.cut, self.trace
        if cut is None or trace is None or cut.kind not in ("detach", "data"):
            return []
        seen = {_site_key(cut)}
        out: list[Crossing] = []
        for crossing in trace.crossings:
            if crossing.kind != cut.kind or not crossing.sources or \
                    crossing.order > trace.last_backward or _site_key(crossing) in seen:
                continue
            if _hangs_from(crossing, self.missing_ids):
                seen.add(_site_key(crossing))
                out.append(crossing)
        return out

    @property
    def on_leaf(self) -> bool:
        """The latest backward was called on a tensor with no history (a detached copy)."""
        record = last_backward(self)
        return record is not None and record.root_is_leaf


def gather(observed: Observation) -> NoGrad | None:
    """Which of the optimizer's parameters got nothing, and what the latest backward reached.
    `observed.scopes` are the live frames' when deciding during a step (empty at exit)."""
    w, records, scopes = observed.watched, observed.records, observed.scopes
    params = list(w.shapes)  # what the first steps saw, whether the optimizer lives or not
    missing = [k for k in params if not w.got.get(k, False)]
    if not missing:
        left = _left_out(w, observed.held, records)
        if not left:
            return None
        optimizer = w.optimizer()
        owners = sorted({w.loose[k].owner for k in left})
        return NoGrad(optimizer, w.steps, [], len(params), [], False, records, [], [], scopes,
                      w.files, set(w.holders), frames=w.frames,
                      left_out=[w.loose[k].name for k in left],
                      left_out_owner=owners[0] if len(owners) == 1 else "",
                      built_at=observed.trace.optimizer_built_at(optimizer)
                      if observed.trace and optimizer else ())
    names = [w.name(k) for k in params]
    lost = {w.name(k) for k in missing}
    # A module counts as starved when all its parameters are, the ones no optimizer holds
    # included (an optimizer over `student.features` alone starves `student.features`).
    empty = _empty_modules(list(dict.fromkeys([*names, *w.names.values()])), lost, w.modules)
    # The whole model, or a whole top-level part of it (`model.decoder`), is an alarm; an
    # idle expert deeper down (`model.experts[2]`) is a smaller finding.
    alarm = len(missing) == len(params) or any(
        len(steps(m)) <= len(steps(module_of(m))) + 1 for m in empty)
    found = _reached(records)
    held = set(params) | observed.held
    known = {**parameter_names(scopes), **w.names} if scopes else w.names
    reached = [known.get(id(t), f"<tensor {list(t.shape)}>") for t in found]
    # Trainable parameters the loss reaches that no optimizer holds (a head swapped in, a
    # model rebuilt, a re-parametrisation made after the optimizer was built).
    outside = [known[id(t)] for t in found
               if t.requires_grad and id(t) not in held and id(t) in known]
    trace = observed.trace
    optimizer = w.optimizer()
    return NoGrad(optimizer, w.steps, [w.name(k) for k in missing], len(params), empty,
                  alarm, records, reached, outside, scopes, w.files, set(w.holders),
                  set(missing), trace,
                  # A frozen parameter never had a path to cut.
                  _traced_cut(trace, set(missing) - w.frozen, records) if trace else None,
                  w.frames,
                  trace.optimizer_built_at(optimizer) if trace and optimizer else (),
                  w.meant & set(missing), frozen=w.frozen & set(missing),
                  frozen_modules=sorted(w.frozen_modules))


def _left_out(w: Watched, held: set[int], records: tuple[BackwardRecord, ...]) -> list[int]:
    """The learnable tensors declared by the user's code (capture.gradients' `loose`) that
    hold a gradient, were reached by the latest backward, are held by no optimizer and kept
    their value since the first step: nothing, not even code of the user's, steps them."""
    reached = {id(t) for t in _reached(records)}
    out = []
    for key, loose in w.loose.items():
        t = loose.tensor()
        if t is None or key in held or t.grad is None or (reached and key not in reached):
            continue
        if fingerprint(t) == loose.fingerprint:
            out.append(key)
    return out


# Which way out of autograd is the cut when several touch the starved parameters: a
# `.detach()` / `.data` is made for nothing else; `.item()` and NumPy are often logging; a
# comparison or argmax usually makes labels or metrics.
_PREFERENCE = {"data": 0, "detach": 0, "leaves-torch": 1, "no-grad": 2, "non-differentiable": 3}


def _hangs_from(crossing: Crossing, parameters: set[int]) -> bool:
    """Did the values that left autograd here hang from any of these parameters (ids)?"""
    nodes = [n for n in crossing.sources if not isinstance(n, torch.Tensor)]
    found = {id(t) for t in crossing.sources if isinstance(t, torch.Tensor)}
    return bool((found | {id(t) for t in leaves(walk(nodes))}) & parameters)


def _site_key(crossing: Crossing) -> tuple[str, int]:
    frame = crossing.site[0] if crossing.site else None
    return (frame.file, frame.line) if frame is not None else ("", 0)


def _traced_cut(trace: Trace, missing: set[int],
                records: tuple[BackwardRecord, ...]) -> Crossing | None:
    """The latest crossing out of autograd (of the most telling kind) whose inputs hung from
    the parameters that got nothing: the point where their path to the loss was cut. A value
    taken out of torch in the very statement that builds the backwarded loss
    (`loss = policy_loss + 0.5 * value_loss.item()`) is the cut before anything else."""
    into_loss = _backwarded_names(records)
    best: Crossing | None = None
    rank = 99
    for crossing in reversed(trace.crossings):
        if not crossing.sources or crossing.kind not in _PREFERENCE or (
                crossing.order > trace.last_backward):
            continue  # after the last backward (a checksum printed at the end) cuts nothing
        frame = crossing.site[0] if crossing.site else None
        stmt = frame.statement if frame is not None else None
        feeds = crossing.kind == "leaves-torch" and stmt is not None and any(
            reading.text(t) in into_loss for t in reading.targets(stmt))
        mine = -1 if feeds else _PREFERENCE[crossing.kind]
        if mine >= rank:
            continue
        if _hangs_from(crossing, missing):
            best, rank = crossing, mine
    return best


def _backwarded_names(records: tuple[BackwardRecord, ...]) -> set[str]:
    """What the latest completed backward call was made on (`loss` in `loss.backward()`)."""
    done = [r for r in records if not r.failed and r.site is not None]
    if not done:
        return set()
    stmt = max(done, key=lambda r: r.order).site.statement  # type: ignore[union-attr]
    target = patterns.backwarded(stmt) if stmt is not None else None
    return {reading.text(target)} if target is not None else set()


def module_of(name: str) -> str:
    """`model` for `model.fc.weight`; `self.model` for `self.model.fc.weight`."""
    parts = steps(name)
    return "".join(parts[:2]) if parts[0] == "self" and len(parts) > 2 else parts[0]


def _empty_modules(names: list[str], missing: set[str], modules: set[str] | None = None
                   ) -> list[str]:
    """The largest module paths all of whose parameters are missing (`model.decoder`). A
    path that was seen not to be a module (`distiller`, a plain object holding the student
    and a connector) names none: the module below it does."""
    prefixes: dict[str, list[str]] = {}
    for n in names:
        if n.startswith("<"):
            continue  # no module holds it any more: it names no module
        parts = steps(n)
        for i in range(1, len(parts)):
            prefixes.setdefault("".join(parts[:i]), []).append(n)
    full = [m for m, members in prefixes.items() if all(x in missing for x in members)
            and (not modules or m in modules)]
    return sorted(m for m in full if not any(m.startswith(o) and m[len(o):len(o) + 1] in ".["
                                             for o in full if o != m))


def _reached(records: tuple[BackwardRecord, ...]) -> list[torch.Tensor]:
    """The leaves the most recent backward graph reached."""
    for record in sorted(records, key=lambda r: -r.order):
        if record.roots:
            return leaves(walk(record.roots))
    return []


# -- for the causes: the words and the finding's frame ---------------------------------------


def starved(ev: NoGrad) -> str:
    """`model` when every parameter missed out, else the top-level submodules that did."""
    roots = sorted({module_of(m) for m in ev.missing if not m.startswith("<")})
    if len(ev.missing) == ev.total and len(roots) == 1:
        return roots[0]
    tops = [m for m in ev.modules if len(steps(m)) >= 2] or ev.modules
    named = [m for m in ev.missing if not m.startswith("<")]
    if not tops and 0 < len(named) <= 3:
        return ", ".join(named)  # a learnable scalar of the model (`model.log_alpha`)
    return ", ".join(tops) if tops else ", ".join(roots) or "the model"


def last_backward(ev: NoGrad) -> BackwardRecord | None:
    done = [r for r in ev.records if not r.failed]
    return max(done, key=lambda r: r.order) if done else None


def backward_statement(record: BackwardRecord | None) -> tuple[FrameInfo, ast.stmt] | None:
    site = record.site if record else None
    stmt = site.statement if site is not None else None
    return (site, stmt) if site is not None and stmt is not None else None


def claim(ev: NoGrad, category: str, why: str, hint: str,
          culprit_line: tuple[str, int] | None, remedy: Remedy | None) -> Claim:
    module = starved(ev)
    file, line = culprit_line if culprit_line else (None, None)
    record = last_backward(ev)
    # What it is, whatever it is called.
    kind = "parameter" if module.split(", ")[0] in ev.missing else \
        "attribute" if "." in module else "local"
    if file is not None and line is not None:
        module = _as_written_at(module, file, line)
    last = {steps(m)[-1] for m in module.split(", ")}
    if ", " in module and len(last) == 1 and last.pop().startswith("."):
        # The same part of every layer of a stack (`flow.layers[i].scale_net`): one name for
        # all of them is the one their class writes.
        module = "self" + steps(module.split(", ")[0])[-1]
    return Claim(category, why, hint,
                 places.culprit(module, kind, file, line, role="made"),
                 places.frame_location(record.site) if record else None, None,
                 {"parameters": ev.missing[:20], "modules": ev.modules,
                  "without_gradient": len(ev.missing), "of": ev.total, "steps": ev.steps},
                 remedy)


def _as_written_at(module: str, file: str, line: int) -> str:
    """The module under the name valid where the culprit line is: inside the model's own
    method the loop's `model.backbone` is `self.backbone` (the longest such path that
    method reads)."""
    tree = reading.parse(file)
    at = _at_line(tree, line) if tree else None
    decorated = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and any(
        d.lineno == line for d in n.decorator_list)), None) if tree else None
    # A decorator's line speaks for the function it decorates (`@torch.no_grad()`).
    scope = decorated or (reading.enclosing_function(tree, at) if tree and at else None)
    owner = reading.class_of(file, scope) if scope is not None else None
    if scope is not None and owner is None and "." in module:
        # A plain function handed the module (`embed(t, time_mlp)` for `self.time_mlp`):
        # its parameter of that name.
        last = module.rsplit(".", 1)[-1]
        return last if last in reading.parameters(scope) else module
    if scope is None or owner is None or not any(
            reading.text(b).endswith("Module") for b in owner.bases):
        return module  # not a model's own method (a hook object's `self.features` is not it)
    parts = steps(module)
    text = ast.unparse(scope)
    for k in range(1, len(parts)):
        candidate = "self" + "".join(parts[k:])
        if re.search(re.escape(candidate) + r"\b", text):
            return candidate
    return module


def _at_line(tree: ast.Module, line: int) -> ast.stmt | None:
    """The statement starting at `line`, else the smallest one spanning it (a decorator's
    line belongs to no statement of its own)."""
    found = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line]
    if found:
        return found[0]
    spanning = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)
                and n.lineno <= line <= (n.end_lineno or n.lineno)]
    return min(spanning, key=lambda n: (n.end_lineno or n.lineno) - n.lineno, default=None)


def summary(ev: NoGrad) -> str:
    gone = not any(not m.startswith("<") for m in ev.missing)
    if gone and len(ev.missing) == ev.total:
        return (f"None of the {ev.total} parameters handed to the optimizer received a "
                f"gradient in the first {ev.steps} steps (no module of the program holds them "
                f"any more)")
    return (f"None of the {len(ev.missing)} parameters of `{starved(ev)}` handed to the "
            f"optimizer received a gradient in the first {ev.steps} steps"
            if len(ev.missing) == ev.total else
            f"{len(ev.missing)} of the {ev.total} parameters handed to the optimizer "
            f"({_which(ev)}) received no gradient in the first {ev.steps} steps")


def _which(ev: NoGrad) -> str:
    named = [m for m in ev.missing if not m.startswith("<")]
    if ev.modules or named:
        return ", ".join(ev.modules) or ", ".join(named[:5])
    return "tensors no module of the program holds any more"

