"""Fix shapes a cause offers beside its own example: each program below is diagnosed, its
first fix is the expected strategy, and the fixed program runs clean and trains. (Run through
`run_with_doctor` in this process: no replay, no verification; the fix itself is checked.
Fixes that need a replay's facts are checked by corpus cases.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from autograd_doctor.edits.apply import apply
from tests.support.runs import isolated
from tests.test_causes import run_text

HEAD = """\
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
"""

PROGRAMS = {
    # A hard threshold on probabilities in a Dice-like loss: the probabilities are the fix.
    "remove-threshold": HEAD + """\
model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 6), (torch.rand(8, 1) > 0.5).float()
    mask = (torch.sigmoid(model(x)) > 0.5).float()
    loss = 1 - (2 * (mask * y).sum() + 1) / (mask.sum() + y.sum() + 1)
    opt.zero_grad()
    loss.backward()
    opt.step()
""",
    # One loss backwarded once per optimizer: backward once, then step each.
    "remove-duplicate-backward": HEAD + """\
enc, dec = nn.Linear(6, 3), nn.Linear(3, 6)
opts = [torch.optim.SGD(enc.parameters(), lr=0.1), torch.optim.SGD(dec.parameters(), lr=0.1)]
for step in range(3):
    x = torch.randn(8, 6)
    loss = F.mse_loss(dec(enc(x)), x)
    for opt in opts:
        opt.zero_grad()
        loss.backward()
        opt.step()
""",
    # A penalty on the weights computed once before the loop and added to every loss:
    # detached it would be a constant, so it is computed in each step.
    "recompute-in-loop": HEAD + """\
model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
penalty = 1e-3 * sum(p.pow(2).sum() for p in model.parameters())
for step in range(3):
    x, y = torch.randn(8, 6), torch.randn(8, 1)
    loss = F.mse_loss(model(x), y) + penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
""",
    # A total of scaled micro-batch losses backwarded after every micro-batch: backward
    # the scaled loss itself, keep the total as a number.
    "accumulate-item": HEAD + """\
model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ACCUM = 2
total = 0.0
for step in range(3):
    x, y = torch.randn(8, 6), torch.randn(8, 1)
    loss = F.mse_loss(model(x), y)
    total = total + loss / ACCUM
    total.backward()
    if (step + 1) % ACCUM == 0:
        opt.step()
        opt.zero_grad()
        print(f"loss {total.item():.4f}")
        total = 0.0
""",
    # One loss per head over a shared trunk, each backwarded in a loop, one step after it.
    "sum-losses": HEAD + """\
trunk, heads = nn.Linear(6, 4), [nn.Linear(4, 1), nn.Linear(4, 1)]
opt = torch.optim.SGD([*trunk.parameters(), *[p for h in heads for p in h.parameters()]],
                      lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 6), torch.randn(8, 1)
    feats = trunk(x)
    opt.zero_grad()
    for head in heads:
        loss = F.mse_loss(head(feats), y)
        loss.backward()
    opt.step()
""",
}


CHECK = """
held = [p for o in [*globals().get("opts", []), *[v for v in list(globals().values())
                                              if isinstance(v, torch.optim.Optimizer)]]
        for g in o.param_groups for p in g["params"]]
assert held and all(p.grad is not None and p.grad.abs().sum() > 0 for p in held)
"""


@pytest.mark.parametrize("strategy", list(PROGRAMS))
def test_fix_shape(strategy: str, tmp_path: Path) -> None:
    report, _, _ = run_text(PROGRAMS[strategy], tmp_path)
    assert report.findings, report
    fix = report.findings[0].fix
    assert fix is not None and fix.strategy == strategy, report.findings[0]
    with isolated(tmp_path):
        fixed = apply(fix)["train.py"]
    # Every parameter an optimizer holds still learns after the fix.
    fixed += CHECK
    (tmp_path / "fixed").mkdir()
    again, outcome, _ = run_text(fixed, tmp_path / "fixed")
    assert outcome.exit_code == 0 and outcome.error is None, outcome.traceback
    assert again.findings == (), again.findings
