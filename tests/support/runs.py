"""Running corpus cases the way users run them: the CLI in a fresh interpreter."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CORPUS = HERE.parent / "corpus"
TIMEOUT = 300


@dataclass
class Run:
    report: dict[str, Any]
    returncode: int
    stdout: str
    stderr: str


def cases(kind: str) -> list[Path]:
    root = CORPUS / kind
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "train.py").exists())


def copy_case(case: Path, dest: Path) -> Path:
    work = dest / case.name
    shutil.copytree(case, work, ignore=shutil.ignore_patterns("fixed", "__pycache__",
                                                              "expected.json"))
    return work


def script_args(case: Path) -> list[str]:
    args = case / "args"
    return args.read_text().split() if args.exists() else []


def doctor(work: Path, args: list[str], extra: tuple[str, ...] = ()) -> Run:
    report = work / "report.json"
    cmd = [sys.executable, "-m", "autograd_doctor", "run", *extra, "--format", "json",
           "-o", str(report), "train.py", *args]
    proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=TIMEOUT)
    data = json.loads(report.read_text()) if report.exists() else {}
    return Run(data, proc.returncode, proc.stdout, proc.stderr)


def python(work: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "train.py", *args], cwd=work, capture_output=True,
                          text=True, timeout=TIMEOUT)


def gradcheck(work: Path, args: list[str]) -> tuple[dict[str, Any], Run]:
    """The doctor on the script, plus an independent record of which parameters learned."""
    summary = work / "grads.json"
    report = work / "report.json"
    cmd = [sys.executable, str(HERE / "gradcheck.py"), str(summary), "run", "--format", "json",
           "-o", str(report), "train.py", *args]
    proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=TIMEOUT)
    data = json.loads(summary.read_text()) if summary.exists() else {}
    rep = json.loads(report.read_text()) if report.exists() else {}
    return data, Run(rep, proc.returncode, proc.stdout, proc.stderr)


def apply_diff(work: Path, diff: str, file: str) -> subprocess.CompletedProcess[str]:
    """Apply a report's diff with `patch -p1` from the directory holding the fixed file."""
    where = (work / file).parent
    # GNU patch where there is one, else git (which every clone of this repo has).
    cmd = (["patch", "-p1", "--no-backup-if-mismatch"] if shutil.which("patch")
           else ["git", "apply", "-p1", "-"])
    return subprocess.run(cmd, input=diff, cwd=where, capture_output=True, text=True)
