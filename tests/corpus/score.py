"""Score the doctor on a split of the corpus, as a new user would meet it: run the script
under `autograd-doctor run`, read the report, apply the proposed fix and run again.

usage: python -m tests.corpus.score [tuned|heldout] [--json FILE] [--cases] [--by-category]
                                     [--in-process]

Per family (the `error` of each expected finding): the right error and category, the culprit
named as expected, the culprit's line, and a fix that applies and trains (after it, the script
runs with no finding, exit 0, and every trainable parameter handed to an optimizer receives a
non-zero gradient). Correct programs: any finding, a different exit code or different output
is a false alarm. The held-out split prints figures only: whoever tunes the diagnosis must not
learn from it which programs fail (`--cases` lists them, for the tuned split only).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tests.support.runs import apply_diff, cases, copy_case, doctor, python, script_args

SPLITS = {"tuned": "", "heldout": "heldout"}
CASE_SECONDS = 240
MEASURES = ("category", "culprit", "line", "fix")


def _expected(case: Path) -> list[dict[str, Any]]:
    data = json.loads((case / "expected.json").read_text())
    return data["findings"] if "findings" in data else [data["finding"]]


def _fits(wanted: Any, got: Any) -> bool:
    """An expectation may list the answers a senior engineer would accept."""
    return got in wanted if isinstance(wanted, list) else got == wanted


def _timeout(signum: int, frame: object) -> None:
    raise TimeoutError(f"case took longer than {CASE_SECONDS} s")


def _in_process() -> None:
    """Replays and verification runs in the scoring process (quicker, same code)."""
    from autograd_doctor.verify import runs as verify_runs
    from tests.support.runs import child_in_process

    verify_runs.run_child = child_in_process  # type: ignore[assignment]


def score_broken(case: Path) -> list[dict[str, Any]]:
    """One row per expected finding: which measures it meets."""
    wanted = _expected(case)
    rows = [{"case": case.name, "error": w["error"], "expects": str(w["category"]),
             **dict.fromkeys(MEASURES, False)} for w in wanted]
    signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(CASE_SECONDS)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = copy_case(case, Path(tmp))
            args = script_args(case)
            run = doctor(work, args)
            found = run.report.get("findings", [])
            for row, want in zip(rows, wanted):
                same = [f for f in found if f["error"] == want["error"]
                        and _fits(want["category"], f["category"])]
                row["category"] = bool(same)
                culprit = (want.get("culprit") or {})
                named = [f for f in same if _fits(culprit.get("expression"),
                                                  (f.get("culprit") or {}).get("expression"))]
                row["culprit"] = bool(named) or (not culprit and bool(same))
                row["line"] = any(_fits(culprit.get("line"), (f.get("culprit") or {}).get("line"))
                                  and _fits(culprit.get("file"),
                                            (f.get("culprit") or {}).get("file"))
                                  for f in same)
            fixes = [f["fix"] for f in found if f.get("fix")]
            trains = False
            if found and fixes:
                applied = all(apply_diff(work, f["diff"], f["file"]).returncode == 0
                              for f in fixes)
                if applied:
                    after = doctor(work, args)
                    trains = (after.report.get("status") == "clean" and after.returncode == 0
                              and after.grads.get("params", 0) > 0
                              and not after.grads.get("without_grad"))
            no_fix_expected = all(w.get("fix", "x") is None for w in wanted)
            for row in rows:
                row["fix"] = trains or (no_fix_expected and bool(found) and not fixes)
    except Exception as exc:  # noqa: BLE001 - a case that breaks the scorer scores nothing
        for row in rows:
            row["crash"] = f"{type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)
    return rows


def score_correct(case: Path) -> list[dict[str, Any]]:
    signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(CASE_SECONDS)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = copy_case(case, Path(tmp))
            args = script_args(case)
            plain = python(work, args)
            run = doctor(work, args)
            alarm = bool(run.report.get("findings")) or run.returncode != plain.returncode \
                or run.stdout != plain.stdout
            found = [f"{f['error']}:{f['category']}" for f in run.report.get("findings", [])]
            return [{"case": case.name, "false_alarm": alarm, "found": found}]
    except Exception as exc:  # noqa: BLE001
        return [{"case": case.name, "false_alarm": True, "crash": f"{type(exc).__name__}"}]
    finally:
        signal.alarm(0)


def table(broken: list[dict[str, Any]], correct: list[dict[str, Any]], key: str = "error") -> str:
    families = sorted({r[key] for r in broken})
    heading = "family" if key == "error" else "expected category"
    lines = [f"| {heading} | findings | category | culprit named | culprit line | fix trains |",
             "|---|---|---|---|---|---|"]
    for family in [*families, "all"]:
        rows = [r for r in broken if family in ("all", r[key])]
        if not rows:
            continue  # a folder of correct programs only
        cells = [f"{100 * sum(r[m] for r in rows) / len(rows):.0f}%" for m in MEASURES]
        lines.append(f"| {family} | {len(rows)} | " + " | ".join(cells) + " |")
    alarms = sum(r["false_alarm"] for r in correct)
    lines.append(f"| correct programs | {len(correct)} | {alarms} false alarm"
                 f"{'' if alarms == 1 else 's'} | | | |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("split", nargs="?", choices=SPLITS, default="tuned")
    parser.add_argument("--json", metavar="FILE", help="write every row to FILE")
    parser.add_argument("--cases", action="store_true",
                        help="list the cases that miss a measure (tuned split only)")
    parser.add_argument("--by-category", action="store_true",
                        help="one row per expected category instead of per family (figures "
                             "only, so also for the held-out split)")
    parser.add_argument("--in-process", action="store_true",
                        help="replays and verification runs in the scoring processes")
    options = parser.parse_args()
    folder = SPLITS[options.split]
    with ProcessPoolExecutor(max_workers=2,
                             initializer=_in_process if options.in_process else None) as pool:
        broken = [r for rows in pool.map(score_broken, cases("broken", folder)) for r in rows]
        correct = [r for rows in pool.map(score_correct, cases("correct", folder))
                   for r in rows]
    sys.stdout.write(table(broken, correct, "expects" if options.by_category else "error"))
    if options.json:
        if options.split == "heldout":  # figures only, no names (see the module's docstring)
            for row in [*broken, *correct]:
                row.pop("case", None)
                row.pop("found", None)
        Path(options.json).write_text(json.dumps({"broken": broken, "correct": correct},
                                                 indent=1))
    if options.cases:
        if options.split == "heldout":
            print("not for the held-out split: it is scored, not studied", file=sys.stderr)
            return 2
        for r in broken:
            missed = [m for m in MEASURES if not r[m]]
            if missed or "crash" in r:
                print(f"{r['case']} [{r['error']}]: misses {', '.join(missed)} "
                      f"{r.get('crash', '')}")
        for r in correct:
            if r["false_alarm"]:
                print(f"{r['case']}: false alarm {r.get('found')} {r.get('crash', '')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
