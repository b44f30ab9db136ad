"""The gradient watch: which parameters handed to each optimizer receive a gradient.

Before each of the first optimizer steps, note which parameters handed to the optimizer
(with requires_grad) hold a gradient; say when it is time to decide (silent_no_grad's
evidence does). Cost: one pass over the parameters per step, for the first STEPS steps only.
"""

from __future__ import annotations

import sys
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from autograd_doctor.capture.frames import user_frames
from autograd_doctor.graph.names import parameter_names

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


class GradientWatch:
    def __init__(self) -> None:
        self._watched: weakref.WeakKeyDictionary[Any, Watched] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()  # two threads may train two models at once

    def before_step(self, optimizer: Any) -> Watched | None:
        """Record this step; the watch when it is time to decide."""
        with self._lock:
            w = self._watched.get(optimizer)
            if w is None:
                w = self._watched[optimizer] = Watched(weakref.ref(optimizer))
            if w.decided:
                return None
            w.decided = self._record(w, optimizer)
            return w if w.decided else None

    def _record(self, w: Watched, optimizer: Any) -> bool:
        """Note this step's gradients; True when it is time to decide."""
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
        return w.steps >= STEPS or (nothing and w.steps >= EARLY)

    def pending(self) -> list[Watched]:
        """Watches not yet decided that have seen enough steps to say something (each is
        handed out once)."""
        with self._lock:
            found = [w for w in self._watched.values() if not w.decided and w.steps >= AT_LEAST]
            for w in found:
                w.decided = True
            return found




@dataclass
class Observation:
    """A watch due for a decision, with what was around when it was made: the recorded
    backward calls and, when decided during a step, the live frames' scopes."""

    watched: Watched
    records: tuple[Any, ...]  # BackwardRecord
    scopes: list[dict[str, Any]]
