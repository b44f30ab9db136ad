"""The JSON report contract (FINDINGS.md) round-trips and keeps its field names."""

from __future__ import annotations

import json

from autograd_doctor.findings import (
    Culprit,
    Edit,
    Finding,
    Fix,
    Location,
    OriginalError,
    Report,
)
from autograd_doctor.render import render

FINDING = Finding(
    error="backward-twice",
    category="carried-state",
    message="`h` is carried.",
    culprit=Culprit("h", "local", "train.py", 31, "out, h = rnn(x, h)"),
    failing_backward=Location("train.py", 36, "loss.backward()"),
    freeing_backward=Location("train.py", 36, "loss.backward()"),
    fix=Fix("detach-at-boundary", "detach h", "train.py", 31, "--- a/train.py\n",
            (Edit("train.py", 31, 30, "", "    h = h.detach()\n"),)),
    details={"also": ["c"]},
)
REPORT = Report("run", "diagnosed", 1, (FINDING,), ("a note",), "",
                OriginalError("RuntimeError", "Trying to backward", "tb"), "train.py")


def test_report_round_trips_through_json() -> None:
    text = render(REPORT, "json")
    assert Report.from_dict(json.loads(text)) == REPORT


def test_report_has_the_contract_fields() -> None:
    data = json.loads(render(REPORT, "json"))
    assert set(data) >= {"version", "tool", "command", "status", "exit_code", "findings"}
    finding = data["findings"][0]
    assert set(finding) >= {"error", "category", "message", "culprit", "failing_backward",
                            "freeing_backward", "fix"}
    assert set(finding["culprit"]) >= {"expression", "file", "line", "kind"}
    assert set(finding["fix"]) >= {"strategy", "description", "file", "line", "diff"}


def test_terminal_rendering_names_the_culprit_and_both_calls() -> None:
    text = render(REPORT, "terminal")
    assert "culprit    h (local), assigned at train.py:31" in text
    assert "freed by   train.py:36" in text and "failed at  train.py:36" in text
    assert "autograd-doctor run --fix train.py" in text
