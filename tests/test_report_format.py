"""The report format is the project's own: the schema in the package and the id tables in
docs/report-format.md are what the registry generates today, and the schema rejects what the
format does not allow."""

from __future__ import annotations

import json

import pytest

from autograd_doctor import report_format
from autograd_doctor.findings import Culprit, Finding, Report
from autograd_doctor.render import render
from tests.support.report_schema import validate

REFRESH = "refresh with: python -m autograd_doctor.report_format --write"


def test_packaged_schema_is_what_the_registry_generates() -> None:
    assert report_format.SCHEMA_FILE.read_text() == report_format.schema_text(), REFRESH


def test_docs_list_every_id_the_registry_knows() -> None:
    text = report_format.DOCS_FILE.read_text()
    assert report_format.docs_with_tables(text) == text, REFRESH


def report(error: str, category: str) -> dict[str, object]:
    finding = Finding(error, category, "m", Culprit("h", "local", "train.py", 3))
    data: dict[str, object] = json.loads(render(Report("run", "diagnosed", 1, (finding,)),
                                                "json"))
    return data


def test_schema_accepts_a_report_and_rejects_ids_it_does_not_know() -> None:
    validate(report("backward-twice", "carried-state"))
    validate(report("graph-growth", "carried-state"))
    for error, category in (("backward-twice", "history-list"), ("no-such-error", "unknown")):
        with pytest.raises(AssertionError):
            validate(report(error, category))
