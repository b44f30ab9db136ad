"""The CLI as users run it: a subprocess, as `autograd-doctor` and `python -m autograd_doctor`
(what only a real process shows: entry points, exit codes, running as python would, --fix);
the rest through the same entry point in this process, which is quicker."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograd_doctor.diagnosis.backward_twice import carried_state
from tests.support.report_schema import validate
from tests.support.runs import cli_output

EXE = shutil.which("autograd-doctor") or str(Path(sys.executable).parent / "autograd-doctor")
ENTRY_POINTS = [[EXE], [sys.executable, "-m", "autograd_doctor"]]


def cli(*args: str, cwd: Path | None = None, entry: list[str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(entry or ENTRY_POINTS[1]), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=["console-script", "python-m"])
def test_help_and_version_work_from_both_entry_points(entry: list[str]) -> None:
    helped = cli("--help", entry=entry)
    assert helped.returncode == 0 and "run" in helped.stdout and "explain" in helped.stdout
    version = cli("--version", entry=entry)
    assert version.returncode == 0 and version.stdout.strip() == "autograd-doctor 0.1.0"


def test_run_help_documents_the_options() -> None:
    out = cli("run", "--help")
    assert out.returncode == 0
    for option in ("--format", "--output", "--fix", "-m MODULE", "SCRIPT"):
        assert option in out.stdout


def test_no_command_and_bad_options_exit_2() -> None:
    assert cli().returncode == 2
    bad = cli("run", "--format", "xml", "x.py")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_a_reader_that_stops_early_is_not_an_internal_error() -> None:
    # `autograd-doctor rule AGD101 | head -1`: the pipe closes before the text is written.
    proc = subprocess.Popen([*ENTRY_POINTS[1], "rule", "AGD101"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert "internal error" not in err and "Traceback" not in err


def test_missing_script_is_an_error_with_exit_2(tmp_path: Path) -> None:
    out = cli("run", "--format", "json", "nope.py", cwd=tmp_path)
    assert out.returncode == 2
    report = json.loads(out.stdout)
    assert report["status"] == "error" and "nope.py" in report["reason"]


SCRIPT_ENV = """\
import sys, os
print("name", __name__)
print("argv", sys.argv)
print("path0", os.path.basename(sys.path[0]))
print("file", os.path.basename(__file__))
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
"""


def test_script_runs_as_python_would(tmp_path: Path) -> None:
    sub = tmp_path / "proj"
    sub.mkdir()
    (sub / "s.py").write_text(SCRIPT_ENV)
    plain = subprocess.run([sys.executable, "proj/s.py", "3", "--flag"], cwd=tmp_path,
                           capture_output=True, text=True)
    doc = cli("run", "proj/s.py", "3", "--flag", cwd=tmp_path)
    assert doc.stdout == plain.stdout
    assert doc.returncode == plain.returncode == 3


def test_module_runs_as_python_dash_m(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "main.py").write_text(SCRIPT_ENV)
    plain = subprocess.run([sys.executable, "-m", "pkg.main", "0", "x"], cwd=tmp_path,
                           capture_output=True, text=True)
    doc = cli("run", "-m", "pkg.main", "0", "x", cwd=tmp_path)
    assert doc.returncode == 0
    assert doc.stdout == plain.stdout


def test_other_errors_fail_exactly_as_under_python(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def f():\n    return {}['missing']\n\nprint('before')\nf()\n")
    plain = subprocess.run([sys.executable, "bad.py"], cwd=tmp_path, capture_output=True,
                           text=True)
    doc = cli("run", "bad.py", cwd=tmp_path)
    assert (doc.returncode, doc.stdout, doc.stderr) == (plain.returncode, plain.stdout,
                                                         plain.stderr)


def test_an_error_inside_backward_fails_exactly_as_under_python(tmp_path: Path) -> None:
    # Raised by the user's hook while torch runs backward: our wrapper around backward is
    # on the stack, and must not show in the traceback.
    (tmp_path / "hook.py").write_text(
        "import torch\n\nw = torch.randn(3, requires_grad=True)\n\n\n"
        "def check(grad):\n    raise ValueError('gradient check failed')\n\n\n"
        "w.register_hook(check)\n(w * 2).sum().backward()\n")
    plain = subprocess.run([sys.executable, "hook.py"], cwd=tmp_path, capture_output=True,
                           text=True)
    doc = cli("run", "hook.py", cwd=tmp_path)
    assert (doc.returncode, doc.stdout, doc.stderr) == (plain.returncode, plain.stdout,
                                                         plain.stderr)


def test_an_unknown_error_in_backward_is_undiagnosed_not_clean(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(
        "import torch\n\nw = torch.randn(3, requires_grad=True)\n(w * 2).backward()\n")
    code, err = cli_output(tmp_path, ["run", "-o", "r.json", "train.py"])
    report = json.loads((tmp_path / "r.json").read_text())
    assert code == report["exit_code"] == 1
    assert report["status"] == "undiagnosed" and report["findings"] == []
    assert "does not know yet" in report["reason"]
    assert "grad can be implicitly created only for scalar outputs" in err


def test_diagnosis_then_short_traceback_and_exit_1(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    code, err = cli_output(tmp_path, ["run", "train.py"])
    assert code == 1
    assert "[backward-twice: carried-state]" in err
    assert "culprit    h (local), assigned at train.py:11" in err
    assert "+    h = h.detach()" in err
    # PyTorch's own message is still there, after the diagnosis, without torch's frames.
    assert err.index("carried-state") < err.index("RuntimeError: Trying to backward")
    assert "torch/_tensor.py" not in err


def test_json_report_follows_the_contract(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    code, _ = cli_output(tmp_path, ["run", "-o", "r.json", "train.py"])
    report = json.loads((tmp_path / "r.json").read_text())
    validate(report)
    assert code == report["exit_code"] == 1
    assert report["version"] == 1 and report["tool"]["name"] == "autograd-doctor"
    assert report["command"] == "run" and report["status"] == "diagnosed"
    finding = report["findings"][0]
    assert finding["culprit"] == {"expression": "h", "file": "train.py", "line": 11,
                                  "kind": "local", "role": "assigned",
                                  "code": "out, h = rnn(x, h)"}
    assert finding["failing_backward"]["line"] == finding["freeing_backward"]["line"] == 14
    assert finding["fix"]["diff"].startswith("--- a/train.py\n+++ b/train.py\n")
    assert "Trying to backward" in report["original_error"]["message"]


def test_fix_applies_and_verifies(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    out = cli("run", "--fix", "train.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "verified" in out.stderr
    assert (tmp_path / "train.py").read_text() == carried_state.FIXED


def test_show_rerenders_a_saved_report(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    cli_output(tmp_path, ["run", "-o", "r.json", "train.py"])
    code, shown = cli_output(tmp_path, ["show", "r.json"])
    assert code == 0 and "carried-state" in shown
    assert cli_output(tmp_path, ["show", "missing.json"])[0] == 2


def test_explain_lists_and_explains_categories(tmp_path: Path) -> None:
    code, listing = cli_output(tmp_path, ["explain"])
    assert code == 0 and "carried-state" in listing
    code, one = cli_output(tmp_path, ["explain", "carried-state"])
    assert code == 0 and "--- broken ---" in one and "h.detach()" in one
    # One cause seen as two kinds of failure: both are explained.
    assert "[backward-twice: carried-state]" in one and "[graph-growth: carried-state]" in one
    code, family = cli_output(tmp_path, ["explain", "backward-twice"])
    assert code == 0 and "causes: " in family
    assert cli_output(tmp_path, ["explain", "no-such-thing"])[0] == 2


def test_importing_the_package_does_not_import_torch() -> None:
    code = "import sys, autograd_doctor; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ})
    assert out.stdout.strip() == "False"
