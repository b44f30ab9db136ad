"""Each cause module's own examples are its tests: BROKEN is claimed by exactly that cause,
with its culprit, and FIXED runs clean."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from autograd_doctor.diagnosis import causes, errors_of
from tests.helpers import run_text

CATEGORIES = {
    "carried-state", "shared-subgraph", "precomputed-outside-loop", "stored-state",
    "accumulated-loss", "repeated-backward", "saved-tensor-access", "unknown",
}
EXAMPLES = [m for m in causes() if hasattr(m, "BROKEN")]
SILENT = ("silent-no-grad", "graph-growth")


def test_every_cause_is_documented_and_named_after_its_category() -> None:
    for module in causes():
        assert (module.__doc__ or "").strip(), module.__name__
        slug = module.__name__.rsplit(".", 1)[1].replace("_", "-")
        assert slug == module.CATEGORY or module.CATEGORY.startswith(slug), module.__name__
    categories = {m.CATEGORY for m in causes()}
    assert CATEGORIES <= categories


@pytest.mark.parametrize("module", EXAMPLES, ids=[m.CATEGORY for m in EXAMPLES])
def test_broken_example_is_claimed_by_its_cause_alone(module: ModuleType,
                                                      tmp_path: Path) -> None:
    report, outcome = run_text(module.BROKEN, tmp_path)
    if errors_of(module)[0] in SILENT:  # the example shows the first error it explains
        assert outcome.error is None and report.exit_code == 1  # runs on, but is reported
    else:
        assert isinstance(outcome.error, RuntimeError)
    assert [f.category for f in report.findings] == [module.CATEGORY]
    finding = report.findings[0]
    assert finding.culprit is not None and finding.culprit.expression == module.CULPRIT
    assert "also_matched" not in finding.details
    assert finding.fix is not None and finding.fix.diff


@pytest.mark.parametrize("module", EXAMPLES, ids=[m.CATEGORY for m in EXAMPLES])
def test_fixed_example_runs_clean(module: ModuleType, tmp_path: Path) -> None:
    report, outcome = run_text(module.FIXED, tmp_path)
    assert outcome.exit_code == 0 and outcome.error is None, outcome.traceback
    assert report.status == "clean" and report.findings == ()
