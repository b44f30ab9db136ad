"""Evidence for parameters that never receive a gradient: which of an optimizer's
parameters got nothing over the steps watched (capture.gradients), whether that is the whole
model or a whole top-level part of it (an alarm) or a few parameters (a note), and what the
latest backward graph reached instead.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

import torch

from autograd_doctor.capture.gradients import Observation
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.operations import Remedy
from autograd_doctor.graph.walk import leaves, walk
from autograd_doctor.source import places
from autograd_doctor.source.places import FrameInfo


@dataclass
class NoGrad:
    """Parameters of one optimizer that got no gradient in the steps observed."""

    optimizer: Any
    steps: int
    missing: list[str]  # parameter names (or shapes, when unnamed)
    total: int
    modules: list[str]  # modules all of whose parameters got nothing
    alarm: bool
    records: tuple[BackwardRecord, ...]
    reached: list[str]  # parameters (named if known) the latest backward graph reached
    reached_outside: list[str]  # ... of them, those this optimizer does not hold
    scopes: list[dict[str, Any]]
    files: list[str]

    @property
    def on_leaf(self) -> bool:
        """The latest backward was called on a tensor with no history (a detached copy)."""
        record = last_backward(self)
        return record is not None and record.root_is_leaf


def gather(observed: Observation) -> NoGrad | None:
    """Which of the optimizer's parameters got nothing, and what the latest backward reached.
    `observed.scopes` are the live frames' when deciding during a step (empty at exit)."""
    w, records, scopes = observed.watched, observed.records, observed.scopes
    optimizer = w.optimizer()
    if optimizer is None:
        return None
    params = [p for g in optimizer.param_groups for p in g["params"] if p.requires_grad]
    missing = [p for p in params if not w.got.get(id(p), False)]
    if not missing:
        return None
    name = {id(p): w.names.get(id(p), f"<parameter {list(p.shape)}>") for p in params}
    empty = _empty_modules([name[id(p)] for p in params], {name[id(p)] for p in missing})
    # The whole model, or a whole top-level part of it (`model.decoder`), is an alarm; an
    # idle expert deeper down (`model.experts.2`) is a note.
    alarm = len(missing) == len(params) or any(
        len(m.split(".")) <= len(module_of(m).split(".")) + 1 for m in empty)
    found = _reached(records)
    held = {id(p) for p in params}
    reached = [w.names.get(id(t), f"<tensor {list(t.shape)}>") for t in found]
    outside = [w.names.get(id(t), f"<tensor {list(t.shape)}>") for t in found
               if id(t) not in held and id(t) in w.names]
    return NoGrad(optimizer, w.steps, [name[id(p)] for p in missing], len(params), empty,
                  alarm, records, reached, outside, scopes, w.files)


def module_of(name: str) -> str:
    """`model` for `model.fc.weight`; `self.model` for `self.model.fc.weight`."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[0] == "self" and len(parts) > 2 else parts[0]


def _empty_modules(names: list[str], missing: set[str]) -> list[str]:
    """The largest module paths all of whose parameters are missing (`model.decoder`)."""
    prefixes: dict[str, list[str]] = {}
    for n in names:
        parts = n.split(".")
        for i in range(1, len(parts)):
            prefixes.setdefault(".".join(parts[:i]), []).append(n)
    full = [m for m, members in prefixes.items() if all(x in missing for x in members)]
    return sorted(m for m in full if not any(m.startswith(o + ".") for o in full))


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
    tops = [m for m in ev.modules if m.count(".") >= 1] or ev.modules
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
    return Claim(category, why, hint,
                 places.culprit(module, "attribute" if "." in module else "local", file, line,
                                role="made"),
                 places.frame_location(record.site) if record else None, None,
                 {"parameters": ev.missing[:20], "modules": ev.modules,
                  "without_gradient": len(ev.missing), "of": ev.total, "steps": ev.steps},
                 remedy)


def summary(ev: NoGrad) -> str:
    return (f"None of the {len(ev.missing)} parameters of `{starved(ev)}` handed to the "
            f"optimizer received a gradient in the first {ev.steps} steps"
            if len(ev.missing) == ev.total else
            f"{len(ev.missing)} of the {ev.total} parameters handed to the optimizer "
            f"({', '.join(ev.modules) or ', '.join(ev.missing[:5])}) received no gradient in "
            f"the first {ev.steps} steps")
