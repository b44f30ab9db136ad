"""`autograd-doctor lint`: every rule on its own examples, the CLI contract (exit codes,
formats, suppression, configuration, fixes), precision on the corpus, robustness on torch's
own sources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from autograd_doctor.diagnosis import categories, families
from autograd_doctor.integrations.lint_command import lint_files
from autograd_doctor.lint import autofix
from autograd_doctor.lint.engine import PARSE_ERROR, lint_text
from autograd_doctor.lint.rules import examples, rules
from tests.corpus.lint_score import lint_case
from tests.support.report_schema import validate

SARIF_SCHEMA = Path(__file__).parent / "support" / "schemas" / "sarif-schema-2.1.0.json"
CORPUS = Path(__file__).parent / "corpus"
RULES = [r.CODE for r in rules()]
BAD = rules()[0].BAD[0]


def _codes(source: str) -> list[str]:
    return [p.rule for p in lint_text("example.py", source.encode())]


@pytest.mark.parametrize("code", RULES)
def test_rule_fires_on_every_bad_example_and_never_on_a_good_one(code: str) -> None:
    module = next(r for r in rules() if r.CODE == code)
    bad, good = examples(module)
    assert bad and good
    for text in bad:
        assert code in _codes(text), text
    for text in good:
        assert _codes(text) == [], text


@pytest.mark.parametrize("code", RULES)
def test_rule_predicts_a_runtime_cause_and_is_documented(code: str) -> None:
    module = next(r for r in rules() if r.CODE == code)
    assert module.CATEGORY in categories(module.ERROR)
    doc = module.__doc__ or ""
    for part in ("What it finds", "Why it", "The fix"):
        assert part in doc


def test_each_predicted_cause_lists_its_own_broken_example() -> None:
    from autograd_doctor.lint.rules import _cause_example

    for error, category in {(r.ERROR, r.CATEGORY) for r in rules()}:
        broken = _cause_example(error, category)
        assert broken, (error, category)
        assert any(broken in examples(r)[0] for r in rules()
                   if (r.ERROR, r.CATEGORY) == (error, category)), category


def test_every_runtime_family_is_known_to_lint_ids() -> None:
    assert {r.ERROR for r in rules()} <= {f.error for f in families()}


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "autograd_doctor", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_exit_codes_and_text_format(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "good.py").write_text("x = 1\n")
    found = _cli("lint", "bad.py", cwd=tmp_path)
    assert found.returncode == 1
    first = found.stdout.splitlines()[0]
    assert first.startswith("bad.py:11:5: AGD101 ")
    assert _cli("lint", "good.py", cwd=tmp_path).returncode == 0
    assert _cli("lint", "missing.py", cwd=tmp_path).returncode == 2
    assert _cli("lint", "--select", "XYZ9", "good.py", cwd=tmp_path).returncode == 2
    assert _cli("lint", "--ignore", "AGD1", "bad.py", cwd=tmp_path).returncode == 0
    assert _cli("lint", "--select", "AGD102", "bad.py", cwd=tmp_path).returncode == 0


def test_noqa_silences_one_rule_or_all(tmp_path: Path) -> None:
    lines = BAD.splitlines()
    lines[10] += "  # noqa: AGD101"
    assert _codes("\n".join(lines)) == []
    lines[10] = lines[10].replace("AGD101", "AGD999")
    assert _codes("\n".join(lines)) == ["AGD101"]
    lines[10] = lines[10].split("#")[0] + "# noqa"
    assert _codes("\n".join(lines)) == []


def test_pyproject_table_and_gitignore_choose_the_files(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(BAD)
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "train.py").write_text(BAD)
    (tmp_path / "scratch").mkdir()
    (tmp_path / "scratch" / "train.py").write_text(BAD)
    (tmp_path / ".gitignore").write_text("scratch/\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.autograd-doctor]\nexclude = ["generated/"]\nignore = ["AGD105"]\n')
    run = _cli("lint", ".", cwd=tmp_path)
    assert run.returncode == 1
    assert {line.split(":")[0] for line in run.stdout.splitlines()[:-1]} == {
        os.path.join("pkg", "train.py")}
    (tmp_path / "pyproject.toml").write_text('[tool.autograd-doctor]\nselect = "AGD1"\n')
    bad_config = _cli("lint", ".", cwd=tmp_path)
    assert bad_config.returncode == 2 and "list of strings" in bad_config.stderr


def test_json_report_follows_the_report_format(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    run = _cli("lint", "--format", "json", "bad.py", cwd=tmp_path)
    report = json.loads(run.stdout)
    validate(report)
    finding = report["findings"][0]
    assert (report["command"], report["status"], report["exit_code"]) == ("lint",
                                                                          "diagnosed", 1)
    assert (finding["error"], finding["rule"], finding["column"]) == ("lint", "AGD101", 5)
    assert finding["details"]["predicts"] == "backward-twice"
    assert finding["category"] == "carried-state"


def test_sarif_validates_against_the_official_schema(tmp_path: Path) -> None:
    case = CORPUS / "broken" / "carried_lstm_hidden"
    (tmp_path / "train.py").write_text((case / "train.py").read_text()
                                       if case.exists() else BAD)
    (tmp_path / "broken.py").write_text("def f(:\n")
    run = _cli("lint", "--format", "sarif", ".", cwd=tmp_path)
    document = json.loads(run.stdout)
    jsonschema.validate(document, json.loads(SARIF_SCHEMA.read_text()))
    results = document["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"AGD000", "AGD101"}
    ids = [d["id"] for d in document["runs"][0]["tool"]["driver"]["rules"]]
    assert set(RULES) <= set(ids)


def test_unreadable_files_are_findings_not_tracebacks(tmp_path: Path) -> None:
    assert [p.rule for p in lint_text("a.py", b"def f(:\n")] == [PARSE_ERROR]
    assert [p.rule for p in lint_text("b.py", b"# -*- coding: latin-1 -*-\nx = '\xe9'\n")] == []
    assert [p.rule for p in lint_text("c.py", b"x = '\xff\xfe'\n")] == [PARSE_ERROR]
    assert [p.rule for p in lint_text("d.py", b"x = 1\x00\n")] == [PARSE_ERROR]


def test_safe_fix_applies_once_and_keeps_formatting(tmp_path: Path) -> None:
    module = next(r for r in rules() if r.CODE == "AGD105")
    source = module.BAD[0].replace("total += loss", "total += loss   # running sum")
    (tmp_path / "t.py").write_text(source)
    diff = _cli("lint", "--diff", "t.py", cwd=tmp_path)
    assert "+    total += loss.detach()   # running sum" in diff.stdout
    assert (tmp_path / "t.py").read_text() == source  # --diff writes nothing
    fixed = _cli("lint", "--fix", "t.py", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    after = (tmp_path / "t.py").read_text()
    assert after == source.replace("total += loss ", "total += loss.detach() ")
    again = _cli("lint", "--fix", "t.py", cwd=tmp_path)
    assert again.returncode == 0 and (tmp_path / "t.py").read_text() == after


def test_suggestions_are_not_applied_without_unsafe_fixes(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text(BAD)
    assert _cli("lint", "--fix", "t.py", cwd=tmp_path).returncode == 1
    assert (tmp_path / "t.py").read_text() == BAD
    assert _cli("lint", "--fix", "--unsafe-fixes", "t.py", cwd=tmp_path).returncode == 0
    assert "h = h.detach()" in (tmp_path / "t.py").read_text()


@pytest.mark.parametrize("code", RULES)
def test_every_fix_leaves_valid_python_that_lint_accepts(code: str) -> None:
    module = next(r for r in rules() if r.CODE == code)
    for text in module.BAD:
        changes = [c for p in lint_text("x.py", text.encode()) if p.fix and p.rule == code
                   for c in p.fix.changes]
        if changes:
            new = autofix.apply(text, changes)
            assert code not in _codes(new)


def test_no_finding_on_any_correct_corpus_program() -> None:
    alarms = [(c.name, p.rule, p.line) for c in sorted((CORPUS / "correct").iterdir())
              for p in lint_case(c)]
    assert alarms == []


def test_lint_fix_agrees_with_the_runtime_fix_where_both_apply() -> None:
    """Where a lint fix fires at the culprit, it takes the strategy the corpus expects of
    `run`: the safe autofixes (written by --fix) nearly always (17 of 19 when written; the two
    others keep totals detached where the corpus keeps `.item()`), the suggestions mostly
    (114 of 132 in all: they differ where the right fix depends on intent)."""
    agreed = {True: 0, False: 0}
    checked = {True: 0, False: 0}
    for case in sorted((CORPUS / "broken").iterdir()):
        data = json.loads((case / "expected.json").read_text())
        for want in data["findings"] if "findings" in data else [data["finding"]]:
            strategy = (want.get("fix") or {}).get("strategy")
            line = (want.get("culprit") or {}).get("line")
            same = [p for p in lint_case(case) if p.fix and p.line == line
                    and p.error == want["error"]]
            if strategy and same and same[0].fix is not None:
                wanted = strategy if isinstance(strategy, list) else [strategy]
                checked[same[0].fix.safe] += 1
                agreed[same[0].fix.safe] += same[0].fix.strategy in wanted
    assert checked[True] >= 15 and checked[False] >= 100, checked
    assert agreed[True] / checked[True] >= 0.85, (agreed, checked)
    assert sum(agreed.values()) / sum(checked.values()) >= 0.85, (agreed, checked)


def test_all_of_torch_lints_without_a_crash_or_a_false_finding() -> None:
    """Every .py file of the installed torch (over a million lines): no traceback, files
    Python cannot parse reported as AGD000, and no finding on torch's own code (each one
    seen there so far was false, and was fixed as a defect)."""
    import torch

    paths = sorted(Path(torch.__file__).parent.rglob("*.py"))
    assert len(paths) > 1000
    problems = lint_files(paths, jobs=2)
    assert [p for p in problems if p.rule != PARSE_ERROR] == []


def test_pre_commit_hook_definition_runs_the_lint_command() -> None:
    import yaml

    hooks = yaml.safe_load((Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in hooks} == {"autograd-doctor-lint", "autograd-doctor-lint-fix"}
    for hook in hooks:
        assert hook["entry"].startswith("autograd-doctor lint")
        assert hook["language"] == "python" and hook["types"] == ["python"]


def test_readme_lists_every_rule_with_what_it_predicts() -> None:
    from autograd_doctor.lint.rules import table_row

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    for module in rules():
        assert table_row(module) in readme, f"README rule table: {table_row(module)}"


def test_one_line_never_gets_two_different_predictions() -> None:
    """Two rules at one line must agree on what will happen (an error or a silent problem,
    and which): a reader cannot act on both."""
    clashes = []
    for case in sorted((CORPUS / "broken").iterdir()):
        seen: dict[tuple[str, int], set[str]] = {}
        for p in lint_case(case):
            seen.setdefault((p.path, p.line), set()).add(p.error)
        clashes += [(case.name, where) for where, errors in seen.items() if len(errors) > 1]
    assert clashes == []


def test_fix_keeps_the_files_own_encoding(tmp_path: Path) -> None:
    module = next(r for r in rules() if r.CODE == "AGD105")
    source = "# -*- coding: latin-1 -*-\n# entraînement\n" + module.BAD[0]
    (tmp_path / "t.py").write_bytes(source.encode("latin-1"))
    assert _cli("lint", "--fix", "t.py", cwd=tmp_path).returncode == 0
    after = (tmp_path / "t.py").read_bytes().decode("latin-1")
    assert "# entraînement" in after and "total += loss.detach()" in after
