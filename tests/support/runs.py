"""Running corpus cases the way users run them, in this process: the CLI's own entry point
(`cli.main`) in the case's folder, with output captured, torch's global state and the case's
own modules put back afterwards. A handful of tests in test_cli.py run true subprocesses.

`record_gradients` is an independent check, not the doctor's: which trainable parameters
received a non-zero gradient before some optimizer step.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch.optim.optimizer import register_optimizer_step_pre_hook

from autograd_doctor import runner
from autograd_doctor.integrations import cli
from autograd_doctor.source.files import is_user_file

HERE = Path(__file__).parent
CORPUS = HERE.parent / "corpus"


@dataclass
class Run:
    report: dict[str, Any]
    returncode: int
    stdout: str
    stderr: str
    grads: dict[str, Any] = field(default_factory=dict)


def cases(kind: str, split: str = "") -> list[Path]:
    root = CORPUS / split / kind if split else CORPUS / kind
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "train.py").exists())


def copy_case(case: Path, dest: Path) -> Path:
    work = dest / case.name
    shutil.copytree(case, work, ignore=shutil.ignore_patterns("fixed", "__pycache__",
                                                              "expected.json"))
    return work


def overlay_fixed(case: Path, work: Path) -> None:
    for file in (case / "fixed").rglob("*.py"):
        target = work / file.relative_to(case / "fixed")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(file, target)


def script_args(case: Path) -> list[str]:
    args = case / "args"
    return args.read_text().split() if args.exists() else []


def is_slow(case: Path) -> bool:
    """torch.compile cases take seconds to compile: CI runs them, a quick local run may not."""
    return any("torch.compile" in f.read_text() for f in case.rglob("*.py"))


@contextlib.contextmanager
def isolated(work: Path, unload: Path | None = None) -> Iterator[None]:
    """Run in `work` as a fresh `python` would: the case's modules (those under `unload`,
    `work` by default) unloaded afterwards, and torch's global switches, warning filters and
    the working directory put back."""
    unload = unload or work
    before = set(sys.modules)
    cwd = os.getcwd()
    grad, dtype = torch.is_grad_enabled(), torch.get_default_dtype()
    anomaly = torch.is_anomaly_enabled()
    filters = list(warnings.filters)
    os.chdir(work)
    try:
        yield
    finally:
        os.chdir(cwd)
        for name in set(sys.modules) - before:
            file = getattr(sys.modules[name], "__file__", None) or ""
            if file.startswith(str(unload)):
                del sys.modules[name]
        torch.set_grad_enabled(grad)
        torch.set_default_dtype(dtype)
        torch.autograd.set_detect_anomaly(anomaly)
        warnings.filters[:] = filters
        runner.release_scripts()


@contextlib.contextmanager
def record_gradients() -> Iterator[dict[str, Any]]:
    seen: dict[int, bool] = {}
    shapes: dict[int, list[int]] = {}
    summary: dict[str, Any] = {}

    def record(optimizer: Any, args: Any, kwargs: Any) -> None:
        for group in optimizer.param_groups:
            for p in group["params"]:
                if not p.requires_grad:
                    continue
                got = p.grad is not None and bool(p.grad.ne(0).any())
                seen[id(p)] = seen.get(id(p), False) or got
                shapes[id(p)] = list(p.shape)

    handle = register_optimizer_step_pre_hook(record)
    try:
        yield summary
    finally:
        handle.remove()
        summary["params"] = len(seen)
        summary["without_grad"] = [shapes[k] for k, v in seen.items() if not v]


def doctor(work: Path, args: list[str], extra: tuple[str, ...] = ()) -> Run:
    """`autograd-doctor run --format json -o report.json train.py ARGS` in `work`, in this
    process, with the independent gradient record."""
    report = work / "report.json"
    out, err = io.StringIO(), io.StringIO()
    with isolated(work), record_gradients() as grads, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        code = cli.main(["run", *extra, "--format", "json", "-o", str(report), "train.py",
                         *args])
    data = json.loads(report.read_text()) if report.exists() else {}
    return Run(data, code, out.getvalue(), err.getvalue(), grads)


def python(work: Path, args: list[str]) -> Run:
    """The script as plain `python` runs it (the same runner, no doctor), in this process."""
    out, err = io.StringIO(), io.StringIO()
    with isolated(work), record_gradients() as grads, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        outcome = runner.run("train.py", args)
    err.write(outcome.traceback)
    return Run({}, outcome.exit_code, out.getvalue(), err.getvalue(), grads)


def apply_diff(work: Path, diff: str, file: str) -> subprocess.CompletedProcess[str]:
    """Apply a report's diff with `patch -p1` from the directory holding the fixed file."""
    where = (work / file).parent
    # GNU patch where there is one, else git (which every clone of this repo has).
    cmd = (["patch", "-p1", "--no-backup-if-mismatch"] if shutil.which("patch")
           else ["git", "apply", "-p1", "-"])
    return subprocess.run(cmd, input=diff, cwd=where, capture_output=True, text=True)


def cli_output(cwd: Path, argv: list[str], unload: Path | None = None) -> tuple[int, str]:
    """`autograd-doctor ARGV` in `cwd`, in this process: exit code, and stdout and stderr
    together in the order they were written (as a terminal shows them)."""
    both = io.StringIO()
    with isolated(cwd, unload), contextlib.redirect_stdout(both), \
            contextlib.redirect_stderr(both):
        code = cli.main(argv)
    return code, both.getvalue()


def child_in_process(scratch: Any, spec: Any) -> Any:
    """A replay or verification run (verify.child) in this process instead of a fresh
    interpreter: the same code, without paying torch's import for every case."""
    from autograd_doctor.verify import child
    from autograd_doctor.verify import runs as verify_runs

    data = verify_runs.spec_data(scratch, spec, "")
    out, err = io.StringIO(), io.StringIO()
    # A fresh interpreter would import the scratch copy's modules, not the first run's.
    # (Only the user's: a project folder may hold a virtual environment with torch in it.)
    theirs = {name: module for name, module in list(sys.modules.items())
              if (file := str(getattr(module, "__file__", None) or "")).startswith(
                  str(scratch.original)) and is_user_file(file)}
    for name in theirs:
        del sys.modules[name]
    try:
        with isolated(scratch.cwd), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            # A fresh interpreter starts with torch's defaults, whatever the first run left.
            torch.set_grad_enabled(True)
            torch.set_default_dtype(torch.float32)
            torch.autograd.set_detect_anomaly(False)
            result = child.run_spec(data)
    finally:
        sys.modules.update(theirs)
    return verify_runs.result_of(result)
