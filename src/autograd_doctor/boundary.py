"""The one place where autograd-doctor's own failures are caught.

Everything the doctor runs inside the user's process (hooks during training, the failure
handler, building fixes, rendering and attaching notes, the decisions at the end of a run)
goes through a Boundary: a bug of ours becomes one recorded line in `problems`, which the
report shows, and never an exception in the user's program or a change to its outcome.
AUTOGRAD_DOCTOR_DEBUG=1 also prints each such failure's traceback, for a bug report.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Boundary:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self._lock = threading.Lock()

    def attempt(self, stage: str, action: Callable[[], T]) -> tuple[T | None, str]:
        """Run our own code: (its result, "") or, when it failed, (None, "Error: message")
        with `stage: Error: message` recorded."""
        try:
            return action(), ""
        except Exception as exc:  # noqa: BLE001 - this is the one boundary
            error = f"{type(exc).__name__}: {exc}"
            if os.environ.get("AUTOGRAD_DOCTOR_DEBUG"):  # the whole traceback, for a bug report
                traceback.print_exc(file=sys.stderr)
            with self._lock:
                self.problems.append(f"{stage}: {error}")
            return None, error

    def guard(self, stage: str, action: Callable[[], T]) -> T | None:
        return self.attempt(stage, action)[0]
