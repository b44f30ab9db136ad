"""The README shows real output of the current code.

Each `<!-- output: run|json|lint PATH -->` marker is followed by a code block that must equal
what `autograd-doctor run` (or `lint`) prints for PATH today (paths made relative to the
repository).
`python -m tests.test_readme --write [--bench FILE]` refreshes the blocks (and the cost table
from `benchmarks/overhead.py --json FILE`).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.runs import cli_output

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"<!-- output: (run|json|lint) (\S+) -->\n```\n(.*?)```\n", re.S)


def produce(mode: str, path: str) -> str:
    """What `autograd-doctor run PATH` prints from the repository's root (run in this
    process, stdout and stderr in the order a terminal shows them)."""
    unload = ROOT / Path(path).parent
    with tempfile.TemporaryDirectory() as tmp:
        if mode == "lint":
            text = cli_output(ROOT, ["lint", path], unload)[1]
        elif mode == "json":
            report = Path(tmp) / "report.json"
            cli_output(ROOT, ["run", "-o", str(report), path], unload)
            text = json.dumps(json.loads(report.read_text()), indent=2)
        else:
            text = cli_output(ROOT, ["run", path], unload)[1]
    text = text.replace(str(ROOT) + os.sep, "")
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines()) + "\n"


pytestmark = pytest.mark.usefixtures("children_in_process")


def blocks() -> list[tuple[str, str, str]]:
    return [(m[1], m[2], m[3]) for m in MARKER.finditer(README.read_text())]


@pytest.mark.parametrize("mode,path,shown", blocks(), ids=[f"{m}:{p}" for m, p, _ in blocks()])
def test_readme_shows_current_output(mode: str, path: str, shown: str) -> None:
    assert masked(produce(mode, path)) == masked(shown), \
        "refresh with: python -m tests.test_readme --write"


def masked(text: str) -> str:
    """How long a replay or a verification run took varies from run to run."""
    return re.sub(r'("seconds": )[0-9.]+', r"\1#", text)


def bench_table(data: dict[str, dict[str, float]]) -> str:
    rows = ["| loop | plain step | with autograd-doctor | with anomaly mode "
            "| peak RSS, doctor/plain |", "|---|---|---|---|---|"]
    for name, t in data.items():
        rows.append(f"| {name} | {t['plain_ms']:.2f} ms | {t['doctor_ratio']:.3f}x "
                    f"({t['doctor_added_us']:+.0f} us) | {t['anomaly_ratio']:.2f}x | "
                    f"{t['rss_ratio']:.3f}x |")
    return "\n".join(rows) + "\n"


def write(bench: str | None) -> None:
    text = README.read_text()
    text = MARKER.sub(lambda m: f"<!-- output: {m[1]} {m[2]} -->\n```\n{produce(m[1], m[2])}```\n",
                      text)
    if bench:
        table = bench_table(json.loads(Path(bench).read_text()))
        text = re.sub(r"<!-- bench -->\n(\|.*\n)*", f"<!-- bench -->\n{table}", text)
    README.write_text(text)


if __name__ == "__main__":
    if "--write" in sys.argv:
        arg = sys.argv.index("--bench") + 1 if "--bench" in sys.argv else 0
        write(sys.argv[arg] if arg else None)
