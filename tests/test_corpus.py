"""Every corpus case through the CLI, as users run it.

Broken cases: the report matches expected.json (kind, category, culprit, lines, fix
strategy), the emitted diff applies with `patch -p1`, and the patched script runs clean with
every trainable parameter receiving a gradient. The hand-fixed version runs clean too.
Correct cases: no finding, exit 0, and the same output as under plain python.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.runs import apply_diff, cases, copy_case, doctor, gradcheck, python, script_args

BROKEN = cases("broken")
CORRECT = cases("correct")


def subset_mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where `actual` differs from what `expected` states (keys not stated are free)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            out += subset_mismatches(value, actual.get(key), f"{path}.{key}")
        return out
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def test_corpus_is_large_enough() -> None:
    assert len(BROKEN) >= 24 and len(CORRECT) >= 15


@pytest.mark.parametrize("case", BROKEN, ids=[c.name for c in BROKEN])
def test_broken_case_gets_expected_finding_and_a_fix_that_trains(case: Path,
                                                                  tmp_path: Path) -> None:
    expected = json.loads((case / "expected.json").read_text())
    args = script_args(case)
    work = copy_case(case, tmp_path)
    run = doctor(work, args)
    assert run.report, run.stderr
    assert run.report["status"] == "diagnosed", run.stderr
    assert run.returncode == expected.get("exit_code", 1), run.stderr
    findings = run.report["findings"]
    assert len(findings) == 1, [f["category"] for f in findings]
    finding = findings[0]
    assert subset_mismatches(expected["finding"], finding) == [], finding["message"]
    assert "also_matched" not in finding.get("details", {})

    fix = finding["fix"]
    if expected["finding"].get("fix", "expected") is None:
        return  # no mechanical fix exists for this case; the report says what to do
    assert fix and fix["diff"], "no fix proposed"
    patched = apply_diff(work, fix["diff"], fix["file"])
    assert patched.returncode == 0, patched.stdout + patched.stderr
    grads, after = gradcheck(work, args)
    assert after.report.get("status") == "clean", (after.report, after.stderr)
    assert grads["exit_code"] == 0, after.stderr
    assert grads["params"] > 0 and grads["without_grad"] == [], grads


@pytest.mark.parametrize("case", BROKEN, ids=[c.name for c in BROKEN])
def test_hand_fixed_version_runs_clean(case: Path, tmp_path: Path) -> None:
    work = copy_case(case, tmp_path)
    for file in (case / "fixed").rglob("*.py"):
        shutil.copy(file, work / file.relative_to(case / "fixed"))
    grads, run = gradcheck(work, script_args(case))
    assert run.report.get("status") == "clean", (run.report, run.stderr)
    assert grads["exit_code"] == 0 and grads["without_grad"] == [], grads


@pytest.mark.parametrize("case", CORRECT, ids=[c.name for c in CORRECT])
def test_correct_program_gets_no_finding_and_same_results(case: Path, tmp_path: Path) -> None:
    args = script_args(case)
    work = copy_case(case, tmp_path)
    plain = python(work, args)
    assert plain.returncode == 0, plain.stderr
    run = doctor(work, args)
    assert run.report["status"] == "clean", run.report
    assert run.returncode == 0, run.stderr
    assert run.report["findings"] == [] and run.report["notes"] == []
    assert run.stdout == plain.stdout
