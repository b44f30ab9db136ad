"""Speed of `autograd-doctor lint` on real code: the installed torch package's own sources,
side by side with torchfix (PyPI) on the same files in the same run.

    python benchmarks/lint_speed.py [--jobs N] [--subset] [--no-torchfix] [--json FILE]

Both tools run as a user runs them (their command line, in a fresh process, every core
unless --jobs), on the same file list: all of torch, or with --subset the folders nn, optim,
autograd and distributions. Figures: wall seconds, lines per second, and lines per second per
core (wall-clock throughput divided by the processes used). Each tool runs twice, taking
turns; the faster of its two runs is kept, and the spread between them is printed as noise.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

SUBSET = ("nn", "optim", "autograd", "distributions")


def files(subset: bool) -> list[Path]:
    root = Path(torch.__file__).parent
    folders = [root / s for s in SUBSET] if subset else [root]
    return sorted(p for folder in folders for p in folder.rglob("*.py"))


def timed(command: list[str], cwd: Path) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    return time.perf_counter() - started, done.returncode


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--subset", action="store_true")
    p.add_argument("--no-torchfix", action="store_true",
                   help="time autograd-doctor only (torchfix takes ~20 min on all of torch)")
    p.add_argument("--json", metavar="FILE")
    ns = p.parse_args()
    chosen = files(ns.subset)
    lines = sum(f.read_bytes().count(b"\n") for f in chosen)
    with tempfile.TemporaryDirectory() as tmp:
        # One copy of the files, so that neither tool skips any by its own excludes.
        work = Path(tmp) / "torch"
        root = Path(torch.__file__).parent
        for f in chosen:
            target = work / f.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)
        bin_dir = Path(sys.executable).parent
        tools = {"autograd-doctor lint": [str(bin_dir / "autograd-doctor"), "lint",
                                          "--jobs", str(ns.jobs), "."]}
        torchfix = shutil.which("torchfix", path=str(bin_dir)) or shutil.which("torchfix")
        if torchfix and not ns.no_torchfix:
            tools["torchfix"] = [torchfix, "--jobs", str(ns.jobs), "."]
        runs: dict[str, list[float]] = {name: [] for name in tools}
        codes: dict[str, int] = {}
        for _ in range(2):
            for name, command in tools.items():
                seconds, codes[name] = timed(command, work)
                runs[name].append(seconds)
    print(f"{len(chosen)} files, {lines} lines of torch {torch.__version__} "
          f"({'subset: ' + ', '.join(SUBSET) if ns.subset else 'whole package'}); "
          f"{ns.jobs} process(es), {os.cpu_count()} core(s)")
    print(f"{'tool':<24}{'seconds':>9}{'lines/s':>11}{'lines/s/core':>14}{'noise':>8}")
    table = {}
    for name, seconds in runs.items():
        best = min(seconds)
        noise = (max(seconds) - best) / best
        rate = lines / best
        table[name] = {"seconds": best, "lines_per_second": rate,
                       "lines_per_second_per_core": rate / ns.jobs, "noise": noise,
                       "exit_code": codes[name]}
        print(f"{name:<24}{best:>9.1f}{rate:>11.0f}{rate / ns.jobs:>14.0f}{noise:>8.0%}")
    if "torchfix" in table:
        ratio = table["torchfix"]["seconds"] / table["autograd-doctor lint"]["seconds"]
        print(f"autograd-doctor lint is {ratio:.1f}x as fast as torchfix on these files")
    if ns.json:
        Path(ns.json).write_text(json.dumps({"files": len(chosen), "lines": lines,
                                             "jobs": ns.jobs, "tools": table}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
