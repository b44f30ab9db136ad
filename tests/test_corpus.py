"""Every corpus case through the CLI's entry point, as users run it (in this process; see
support/runs.py).

Broken cases: the report matches expected.json (kind, category, culprit, lines, fix
strategy) and the report schema, the emitted diff applies with `patch -p1`, and the patched
script runs clean with every trainable parameter receiving a gradient. The hand-fixed version
runs clean too. Correct cases: no finding, exit 0, and the same output as plain python.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

import pytest

from tests.support.report_schema import validate
from tests.support.runs import (
    apply_diff,
    cases,
    copy_case,
    doctor,
    is_slow,
    overlay_fixed,
    python,
    script_args,
)

BROKEN = cases("broken")
CORRECT = cases("correct")
pytestmark = pytest.mark.usefixtures("children_in_process")


def known_misses() -> dict[str, str]:
    """corpus/misses.txt: tuned cases not yet right, with what is missing."""
    text = (Path(__file__).parent / "corpus" / "misses.txt").read_text()
    pairs = (line.split(":", 1) for line in text.splitlines()
             if line.strip() and not line.startswith("#"))
    return {name.strip(): reason.strip() for name, reason in pairs}


MISSES = known_misses()


def params(found: list[Path], misses: dict[str, str] | None = None,
           slow: bool = False) -> list[Any]:
    """`slow`: every case runs only with SLOW=1 (CI). Known misses run only there too: they
    keep their strictness (a case that starts passing must leave the list) without costing
    every local run the whole pipeline of a case that is known to fail."""
    out = []
    for c in found:
        marks = [pytest.mark.slow] if slow or is_slow(c) else []
        if misses and c.name in misses:
            marks += [pytest.mark.xfail(reason=misses[c.name], strict=True), pytest.mark.slow]
        out.append(pytest.param(c, id=c.name, marks=marks))
    return out


def subset_mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where `actual` differs from what `expected` states (keys not stated are free; a list
    states the values that are all right: `"strategy": ["accumulate-item", ...]`)."""
    if isinstance(expected, list) and not isinstance(actual, list):
        return [] if actual in expected else [f"{path}: expected one of {expected}, got "
                                              f"{actual!r}"]
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            out += subset_mismatches(value, actual.get(key), f"{path}.{key}")
        return out
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def expected_findings(case: Path) -> list[dict[str, Any]]:
    data = json.loads((case / "expected.json").read_text())
    return data["findings"] if "findings" in data else [data["finding"]]


def test_corpus_is_large_enough() -> None:
    assert len(BROKEN) >= 24 and len(CORRECT) >= 15


def test_known_misses_are_cases() -> None:
    assert set(MISSES) <= {c.name for c in BROKEN}


@pytest.mark.parametrize("case", params(BROKEN, MISSES))
def test_broken_case_gets_expected_finding_and_a_fix_that_trains(case: Path,
                                                                  tmp_path: Path) -> None:
    expected = json.loads((case / "expected.json").read_text())
    wanted = expected_findings(case)
    args = script_args(case)
    work = copy_case(case, tmp_path)
    run = doctor(work, args)
    assert run.report, run.stderr
    validate(run.report)
    assert run.report["problems"] == [], run.report["problems"]
    # The replay's record says why a traced replay did not place the cause.
    assert run.report["status"] == "diagnosed", (run.report.get("replay"), run.stderr)
    assert run.returncode == expected.get("exit_code", 1), run.stderr
    findings = run.report["findings"]
    assert len(findings) == len(wanted), [f["category"] for f in findings]
    for want in wanted:
        misses = [subset_mismatches(want, f) for f in findings]
        assert [] in misses, misses

    fixes = [f["fix"] for f in findings if f["fix"]]
    if all(want.get("fix", "expected") is None for want in wanted):
        assert fixes == []
        return  # no mechanical fix exists for this case; the report says what to do
    assert fixes, "no fix proposed"
    for fix in fixes:
        patched = apply_diff(work, fix["diff"], fix["file"])
        assert patched.returncode == 0, patched.stdout + patched.stderr
    after = doctor(work, args)
    assert after.report.get("status") == "clean", (after.report, after.stderr)
    assert after.returncode == 0, after.stderr
    assert after.grads["params"] > 0 and after.grads["without_grad"] == [], after.grads


def fixed_sample(found: list[Path]) -> list[Path]:
    """Hand-fixed versions are correct programs (check_case.py runs each under plain python
    when it is written); under the doctor they guard against false alarms on near-misses.
    One in three, picked by a stable hash of the name, keeps CI inside its time as the corpus
    grows; ALL_FIXED=1 runs every one."""
    if os.environ.get("ALL_FIXED"):
        return found
    return [c for c in found if zlib.crc32(c.name.encode()) % 3 == 0]


@pytest.mark.parametrize("case", params(fixed_sample(BROKEN), slow=True))
def test_hand_fixed_version_runs_clean(case: Path, tmp_path: Path) -> None:
    work = copy_case(case, tmp_path)
    overlay_fixed(case, work)
    run = doctor(work, script_args(case))
    assert run.report.get("status") == "clean", (run.report, run.stderr)
    assert run.returncode == 0 and run.grads["without_grad"] == [], run.grads


@pytest.mark.parametrize("case", params(CORRECT))
def test_correct_program_gets_no_finding_and_same_results(case: Path, tmp_path: Path) -> None:
    args = script_args(case)
    work = copy_case(case, tmp_path)
    plain = python(work, args)
    assert plain.returncode == 0, plain.stderr
    run = doctor(work, args)
    validate(run.report)
    assert run.report["status"] == "clean", run.report
    assert run.returncode == 0, run.stderr
    assert run.report["findings"] == [] and run.report["notes"] == []
    assert run.report["problems"] == []
    assert run.stdout == plain.stdout
