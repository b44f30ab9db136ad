"""The child interpreter of a replay or a verification run: the user's script under the
doctor (traced, for a replay), stopped after a number of optimizer steps or seconds, with an
independent record of which parameters received a gradient.

usage: python -m autograd_doctor.verify.child SPEC.json   (written by verify.runs)
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)

from autograd_doctor.capture.frames import live_scopes
from autograd_doctor.doctor import run_with_doctor
from autograd_doctor.graph.names import parameter_names


class Stop(BaseException):
    """Ends the user's script early: enough steps were seen, or the time is up. A
    BaseException, so that the script's own `except Exception` does not catch it."""


class Gradients:
    """Which trainable parameters handed to an optimizer received a non-zero gradient before
    some step, by name (`model.fc.weight`), or by position when no name is in sight."""

    def __init__(self, stop_after: int | None) -> None:
        # Kept apart for each optimizer's first step and its later ones: a fix that leaves a
        # parameter a gradient only in the first step (a value cached from it, detached from
        # then on) has stopped it learning as surely as one that cuts it off at once.
        self.first: dict[str, bool] = {}
        self.later: dict[str, bool] = {}
        self.steps = 0
        self.stop_after = stop_after
        self._names: dict[int, str] = {}
        self._optimizers: dict[int, int] = {}
        self._made: dict[int, int] = {}  # optimizer index -> steps it made

    @property
    def got(self) -> dict[str, bool]:
        """Each parameter: did it receive a gradient in a later step of its optimizer (in
        the first, where that optimizer made one step only)?"""
        return {name: self.later.get(name, first) for name, first in self.first.items()}

    def before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        if id(optimizer) not in self._optimizers:
            self._optimizers[id(optimizer)] = len(self._optimizers)
            self._names.update(parameter_names(live_scopes()))
        index = self._optimizers[id(optimizer)]
        seen = self.later if self._made.get(index, 0) else self.first
        self._made[index] = self._made.get(index, 0) + 1
        for g, group in enumerate(optimizer.param_groups):
            for i, p in enumerate(group["params"]):
                if p.requires_grad:
                    name = self._names.get(id(p), f"<optimizer {index} group {g} param {i}>")
                    got = p.grad is not None and bool(p.grad.ne(0).any())
                    self.first.setdefault(name, False)
                    seen[name] = seen.get(name, False) or got

    def after_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        self.steps += 1
        if self.stop_after is not None and self.steps >= self.stop_after:
            raise Stop(f"stopped after {self.steps} optimizer steps")


def _time_up(signum: int, frame: FrameType | None) -> None:
    raise Stop("stopped at the time budget")


def main(spec_file: str) -> int:
    spec = json.loads(Path(spec_file).read_text())
    Path(spec["output"]).write_text(json.dumps(run_spec(spec)))
    return 0


def run_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """Run the script as the spec says; what came of it, as JSON data."""
    gradients = Gradients(spec.get("stop_after_steps"))
    handles = [register_optimizer_step_pre_hook(gradients.before_step),
               register_optimizer_step_post_hook(gradients.after_step)]
    if spec.get("seconds"):
        signal.signal(signal.SIGALRM, _time_up)
        signal.setitimer(signal.ITIMER_REAL, float(spec["seconds"]))
    try:
        report, outcome, _ = run_with_doctor(spec["target"], spec.get("args", []),
                                             spec.get("module", False), trace=spec["trace"],
                                             quiet=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for handle in handles:
            handle.remove()
    stopped = str(outcome.error) if isinstance(outcome.error, Stop) else ""
    return {
        "report": report.to_dict(),
        "exit_code": 0 if stopped else outcome.exit_code,
        "stopped": stopped,
        "steps": gradients.steps,
        "gradients": gradients.got,
        "error": "" if stopped or outcome.error is None or report.original_error else
        f"{type(outcome.error).__name__}: {outcome.error}",
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
