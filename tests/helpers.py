"""Small shared pieces for tests: run a script text under the doctor in this process."""

from __future__ import annotations

from pathlib import Path

from autograd_doctor import doctor, runner
from autograd_doctor.findings import Report


def run_text(text: str, tmp_path: Path, name: str = "train.py") -> tuple[Report, runner.Outcome]:
    script = tmp_path / name
    script.write_text(text)
    return doctor.run(str(script), [])
