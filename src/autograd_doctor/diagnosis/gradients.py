"""Evidence for parameters that never receive a gradient (no error is raised).

Before each of the first optimizer steps, note which parameters handed to the optimizer
(with requires_grad) hold a gradient. The whole model, or a whole top-level submodule,
getting nothing is an alarm; a few parameters (an unused embedding, an idle expert) are a
note. Cost: one pass over the parameters per step, for the first STEPS steps only.
"""

from __future__ import annotations

import sys
import weakref
from dataclasses import dataclass, field
from typing import Any

import torch

from autograd_doctor.capture.frames import user_frames
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.graph.names import parameter_names
from autograd_doctor.graph.walk import leaves, walk

STEPS = 10  # steps observed per optimizer before deciding
EARLY = 3  # steps after which "nothing at all" is already certain
# Fewer steps than this say nothing: an LBFGS-style optimizer computes its first gradients
# inside its first step, after the hook has looked.
AT_LEAST = 2


@dataclass
class Watched:
    # Weak, and no frames kept: watching must not keep an optimizer's state, or the
    # tensors a step's locals held, alive.
    optimizer: weakref.ref[Any]
    steps: int = 0
    got: dict[int, bool] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # the user's files on the stack at step 1
    decided: bool = False


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


def live_scopes() -> list[dict[str, Any]]:
    """The locals, then the globals, of the user's frames on the stack now."""
    frames = user_frames(sys._getframe(1))
    return [f.f_locals for f in frames] + [f.f_globals for f in frames]


class GradientWatch:
    def __init__(self) -> None:
        self._watched: weakref.WeakKeyDictionary[Any, Watched] = weakref.WeakKeyDictionary()

    def before_step(self, optimizer: Any) -> Watched | None:
        """Record this step; the watch when it is time to decide."""
        w = self._watched.get(optimizer)
        if w is None:
            w = self._watched[optimizer] = Watched(weakref.ref(optimizer))
        if w.decided:
            return None
        if not w.names:
            frames = user_frames(sys._getframe(1))
            w.names = parameter_names([f.f_locals for f in frames] +
                                      [f.f_globals for f in frames])
            w.files = list(dict.fromkeys(f.f_code.co_filename for f in frames))
        w.steps += 1
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.requires_grad:
                    # A gradient that is exactly zero is still a gradient (a WGAN critic's
                    # last bias gets 0 every step); an unreached one stays None, even under
                    # zero_grad(set_to_none=False).
                    w.got[id(p)] = w.got.get(id(p), False) or p.grad is not None
        nothing = not any(w.got.values())
        if w.steps >= STEPS or (nothing and w.steps >= EARLY):
            return w
        return None

    def pending(self) -> list[Watched]:
        return [w for w in self._watched.values() if not w.decided and w.steps >= AT_LEAST]


def evidence(w: Watched, records: tuple[BackwardRecord, ...],
             scopes: list[dict[str, Any]]) -> NoGrad | None:
    """Decide; `scopes` are the live frames' when deciding during a step (empty at exit)."""
    w.decided = True
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
