"""What the replay and the fix verification add after a failure, measured in one run.

    python benchmarks/after_failure.py [--rounds R] [--json FILE]

For each bundled example (each fails, or ends with a silent finding): the wall time of
`python SCRIPT`, of `autograd-doctor run --no-replay --no-verify` (the first run and its
diagnosis), then what `run` adds with the replay alone and with the replay and verification
(the default). Each configuration is a fresh process, as a user starts it; the configurations
take turns for R rounds and each figure is the median over rounds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
CONFIGS = {
    "python": [sys.executable],
    "first run": [sys.executable, "-m", "autograd_doctor", "run", "--no-replay", "--no-verify"],
    "with replay": [sys.executable, "-m", "autograd_doctor", "run", "--no-verify"],
    "with replay and verification": [sys.executable, "-m", "autograd_doctor", "run"],
}


def seconds(command: list[str], script: Path) -> float:
    started = time.perf_counter()
    subprocess.run([*command, script.name], cwd=script.parent, capture_output=True,
                   timeout=900)
    return time.perf_counter() - started


def measure(rounds: int) -> dict[str, dict[str, float]]:
    times: dict[str, dict[str, list[float]]] = {
        s.name: {c: [] for c in CONFIGS} for s in EXAMPLES}
    for _ in range(rounds):
        for script in EXAMPLES:
            for name, command in CONFIGS.items():
                times[script.name][name].append(seconds(command, script))
    return {script: {name: statistics.median(v) for name, v in per.items()}
            for script, per in times.items()}


def table(found: dict[str, dict[str, float]]) -> str:
    rows = ["| example | python | first run | + replay | + verification |",
            "|---|---|---|---|---|"]
    for script, t in found.items():
        replay = t["with replay"] - t["first run"]
        verify = t["with replay and verification"] - t["with replay"]
        rows.append(f"| {script} | {t['python']:.1f} s | {t['first run']:.1f} s | "
                    f"+{replay:.1f} s | +{verify:.1f} s |")
    return "\n".join(rows) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", metavar="FILE")
    options = parser.parse_args()
    found = measure(options.rounds)
    sys.stdout.write(table(found))
    if options.json:
        Path(options.json).write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
