"""The traced replay: run the script again from the start, in a scratch copy, under full
tracing (capture.tracer), up to the same failure; its diagnosis, made from exact facts, then
replaces the first run's. When the replay does not reach the same failure (the script is not
deterministic, a budget ran out), the first run's diagnosis stands and the report says why.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from autograd_doctor.findings import JSON, Report
from autograd_doctor.verify import runs
from autograd_doctor.verify.runs import ChildResult, Spec
from autograd_doctor.verify.scratch import Scratch, make

SILENT = ("silent-no-grad", "graph-growth")


def replay(first: Report, target: str, args: list[str], module: bool,
           seconds: float) -> Report:
    """The report to show: the replay's when it reached the same outcome, else `first` with
    the replay's status recorded."""
    started = time.perf_counter()
    scratch = make(target)
    try:
        result = runs.run_child(scratch, Spec(target, tuple(args), module, trace=True,
                                         stop_after_steps=_enough_steps(first),
                                         seconds=seconds))
    finally:
        scratch.remove()
    took = round(time.perf_counter() - started, 2)
    status = _same(first, result)
    info: dict[str, JSON] = {"status": status, "seconds": took}
    if status != "used" or result.report is None:
        if result.problem:
            info["problem"] = result.problem
        if result.report is not None and result.report.problems:
            # Our own failure in the replay may be why it found something else: say so.
            info["problems"] = list(result.report.problems)
        return replace(first, replay=info)
    replayed = _outside(result.report, scratch)
    return replace(first, status=replayed.status if replayed.findings else first.status,
                   findings=replayed.findings or first.findings,
                   notes=replayed.notes, reason=replayed.reason or first.reason,
                   problems=first.problems + tuple(f"replay: {p}" for p in replayed.problems),
                   replay=info)


def _enough_steps(first: Report) -> int | None:
    """A replay of silent problems needs no more steps than the first run needed to see them
    (and one more); a failure stops the script by itself."""
    if first.original_error is not None:
        return None
    seen = [int(f.details.get("optimizer_steps", 0) or 0) for f in first.findings
            if f.error in SILENT]
    return max(seen) + 2 if seen and all(seen) else None


def _same(first: Report, result: ChildResult) -> str:
    replayed = result.report
    if replayed is None:
        return "failed"
    if first.original_error is not None:
        other = replayed.original_error
        if other is None or other.type != first.original_error.type or _head(
                other.message) != _head(first.original_error.message):
            return "different failure"
        return "used"
    kinds = {f.error for f in first.findings}
    return "used" if kinds and kinds <= {f.error for f in replayed.findings} else \
        "different findings"


def _head(message: str) -> str:
    return message.split(":")[0].split("[")[0]


def _outside(report: Report, scratch: Scratch) -> Report:
    """The replay's report with paths into the scratch copy turned back into the user's."""
    copy, original = str(scratch.copy), str(scratch.original)

    def mapped(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(copy, original)
        if isinstance(value, list):
            return [mapped(v) for v in value]
        if isinstance(value, dict):
            return {k: mapped(v) for k, v in value.items()}
        return value

    return Report.from_dict(mapped(report.to_dict()))
