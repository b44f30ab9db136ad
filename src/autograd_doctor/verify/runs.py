"""Running the user's script again in a child interpreter, in a scratch copy of their files,
and reading back what happened (verify.child writes it)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograd_doctor.findings import Report
from autograd_doctor.verify.scratch import Scratch

# Beyond its own budget, what a child may take to start (importing torch) and to finish.
GRACE_SECONDS = 60


@dataclass
class ChildResult:
    report: Report | None
    exit_code: int
    stopped: str  # why it was stopped early ("" when it ran to the end or failed)
    steps: int
    gradients: dict[str, bool] = field(default_factory=dict)
    error: str = ""  # the script's own exception, when it was not an autograd one
    problem: str = ""  # why nothing came back (a crash, a timeout)


@dataclass(frozen=True)
class Spec:
    target: str
    args: tuple[str, ...]
    module: bool
    trace: bool
    stop_after_steps: int | None = None
    seconds: float | None = None


def spec_data(scratch: Scratch, spec: Spec, output: str) -> dict[str, Any]:
    return {"target": spec.target if spec.module else scratch.inside(spec.target),
            "args": list(spec.args), "module": spec.module, "trace": spec.trace,
            "stop_after_steps": spec.stop_after_steps, "seconds": spec.seconds,
            "output": output}


def result_of(data: dict[str, Any]) -> ChildResult:
    return ChildResult(Report.from_dict(data["report"]), data["exit_code"], data["stopped"],
                       data["steps"], data["gradients"], data.get("error", ""))


def run_child(scratch: Scratch, spec: Spec) -> ChildResult:
    with tempfile.TemporaryDirectory(prefix="autograd-doctor-run-") as tmp:
        output = Path(tmp) / "result.json"
        data = spec_data(scratch, spec, str(output))
        spec_file = Path(tmp) / "spec.json"
        spec_file.write_text(json.dumps(data))
        limit = (spec.seconds or 600) + GRACE_SECONDS
        try:
            done = subprocess.run([sys.executable, "-m", "autograd_doctor.verify.child",
                                   str(spec_file)], cwd=scratch.cwd, capture_output=True,
                                  text=True, timeout=limit, check=False)
        except subprocess.TimeoutExpired:
            return ChildResult(None, -1, "", 0, problem=f"no answer within {limit:.0f} s")
        if not output.exists():
            tail = (done.stderr or "").strip().splitlines()[-1:] or ["no output"]
            return ChildResult(None, done.returncode, "", 0,
                               problem=f"the run ended without a result: {tail[0]}")
        return result_of(json.loads(output.read_text()))
