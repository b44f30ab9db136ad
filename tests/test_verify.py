"""The replay and fix verification as `autograd-doctor run` uses them, and every way `--fix`
can end: it writes only a verified change, leaves every file as it was otherwise, refuses a
file that changed since the run, puts back what it wrote when a write fails, and has nothing
to do the second time. Replays and verification runs happen in this process (the same code
a child interpreter runs), except in the one test that checks the child process itself."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any

import pytest

from autograd_doctor.diagnosis.backward_twice import carried_state
from autograd_doctor.integrations import cli
from autograd_doctor.verify.fixes import Change
from tests.support.runs import cli_output

pytestmark = pytest.mark.usefixtures("children_in_process")

# The carried-state bug, and after training a second bug of the user's own: the fix is
# right for the first, but the fixed script still fails, so it cannot be verified.
SECOND_BUG = carried_state.BROKEN + "raise ValueError('the metrics file is missing')\n"

# Fails on the first run only: the replay (a scratch copy holding the marker) runs clean.
ONCE = """\
import os
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn, head = nn.RNN(3, 5), nn.Linear(5, 1)
opt = torch.optim.SGD([*rnn.parameters(), *head.parameters()], lr=0.1)
h = torch.zeros(1, 2, 5)
first = not os.path.exists("seen.txt")
open("seen.txt", "w").close()
for step in range(3):
    out, h = rnn(torch.randn(4, 2, 3), h)
    loss = head(out).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if not first:
        h = h.detach()
"""


def run_json(work: Path, *options: str) -> tuple[int, dict[str, Any], str]:
    code, err = cli_output(work, ["run", *options, "-o", "r.json", "train.py"])
    return code, json.loads((work / "r.json").read_text()), err


def test_the_replay_is_announced_and_recorded(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    code, report, err = run_json(tmp_path)
    assert code == 1
    assert "running the script again under full tracing" in err
    assert report["replay"]["status"] == "used" and report["replay"]["seconds"] > 0
    assert report["findings"][0]["category"] == "carried-state"


def test_no_replay_skips_it(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    code, report, err = run_json(tmp_path, "--no-replay")
    assert code == 1 and "full tracing" not in err
    assert report.get("replay") is None
    assert report["findings"][0]["category"] == "carried-state"


def test_a_replay_that_does_not_fail_again_leaves_the_first_diagnosis(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(ONCE)
    code, report, _ = run_json(tmp_path)
    assert code == 1
    assert report["replay"]["status"] == "different failure"
    assert report["findings"][0]["category"] == "carried-state"
    assert report["findings"][0]["culprit"]["expression"] == "h"


def test_each_fix_says_whether_it_was_verified(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    _, verified, err = run_json(tmp_path)
    assert "trying the fix in a scratch copy" in err
    assert verified["findings"][0]["fix"]["status"] == "verified"
    assert "no parameter lost its gradient" in verified["findings"][0]["fix"]["verification"]
    _, untried, err = run_json(tmp_path, "--no-verify")
    assert "scratch copy" not in err
    assert untried["findings"][0]["fix"]["status"] == "not tried"


def test_a_fix_after_which_the_script_still_fails_is_marked_failed(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(SECOND_BUG)
    _, report, err = run_json(tmp_path)
    fix = report["findings"][0]["fix"]
    assert fix["status"] == "failed"
    assert "ValueError" in fix["verification"]
    assert "NOT verified" in cli_output(tmp_path, ["run", "train.py"])[1]


def test_fix_writes_nothing_when_verification_fails(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(SECOND_BUG)
    code, err = cli_output(tmp_path, ["run", "--fix", "train.py"])
    assert code == 1
    assert "no verified fix to apply; your files are unchanged" in err
    assert (tmp_path / "train.py").read_text() == SECOND_BUG


def test_fix_writes_nothing_without_verification(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    code, err = cli_output(tmp_path, ["run", "--fix", "--no-verify", "train.py"])
    assert code == 1 and "your files are unchanged" in err
    assert (tmp_path / "train.py").read_text() == carried_state.BROKEN


def test_fix_writes_the_verified_change_and_a_second_fix_changes_nothing(
        tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(carried_state.BROKEN)
    code, err = cli_output(tmp_path, ["run", "--fix", "train.py"])
    assert code == 0, err
    assert (tmp_path / "train.py").read_text() == carried_state.FIXED
    code, err = cli_output(tmp_path, ["run", "--fix", "train.py"])
    assert code == 0 and "no problems found" in err
    assert (tmp_path / "train.py").read_text() == carried_state.FIXED


def test_fix_refuses_a_file_that_changed_since_the_run(tmp_path: Path) -> None:
    train = tmp_path / "train.py"
    train.write_text("x = 1\n")
    change = Change(before={str(train): "x = 1\n"}, after={str(train): "x = 2\n"})
    train.write_text("x = 3\n")  # the user edited it meanwhile
    assert cli.write_fix(change) == 1
    assert train.read_text() == "x = 3\n"


def test_a_failed_write_puts_back_every_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("a = 1\n")
    second.write_text("b = 1\n")
    change = Change(before={str(first): "a = 1\n", str(second): "b = 1\n"},
                    after={str(first): "a = 2\n", str(second): "b = 2\n"})
    real_open = builtins.open

    def full_disk(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if str(file) == str(second) and "w" in mode:
            raise OSError(28, "No space left on device")
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", full_disk)
    assert cli.write_fix(change) == 1
    monkeypatch.undo()
    assert first.read_text() == "a = 1\n" and second.read_text() == "b = 1\n"


MODEL = """\
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 5)
        self.head = nn.Linear(5, 1)
        self.h = None

    def forward(self, x):
        out, self.h = self.rnn(x, self.h)
        return self.head(out)
"""

TRAIN = """\
import torch

from model import Net

torch.manual_seed(0)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
losses = []
for step in range(8):
    loss = net(torch.randn(4, 2, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss)
print(f"mean loss {sum(losses) / len(losses):.4f}")
"""


def test_the_fix_that_survives_the_next_problem_is_found_and_written_across_files(
        tmp_path: Path) -> None:
    # The state carried on the model fails at step 2; once it is detached, the list of
    # losses kept with their graphs shows (the graph grows every step). Both fixes are
    # verified together, in two files, named as each file writes them.
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "train.py").write_text(TRAIN)
    code, report, _ = run_json(tmp_path)
    found = {(f["error"], f["category"]): f for f in report["findings"]}
    carried = found[("backward-twice", "carried-state")]
    assert carried["culprit"]["expression"] == "self.h"
    assert carried["fix"]["file"] == "model.py" and carried["fix"]["status"] == "verified"
    grows = found[("graph-growth", "history-list")]
    assert grows["fix"]["file"] == "train.py" and grows["fix"]["status"] == "verified"
    code, err = cli_output(tmp_path, ["run", "--fix", "train.py"])
    assert code == 0 and "applied the verified fix to model.py, train.py" in err
    assert "self.h = self.h.detach()" in (tmp_path / "model.py").read_text()
    assert "losses.append(loss.detach())" in (tmp_path / "train.py").read_text()
    code, err = cli_output(tmp_path, ["run", "train.py"])
    assert code == 0 and "no problems found" in err
