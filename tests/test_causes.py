"""Each cause's own examples are its tests (the Fixit way): BROKEN fails under plain torch
(or runs on, for silent problems), is claimed by exactly that cause with its culprit and
line, no two causes claim it without a declared order, and the emitted fix turns BROKEN into
FIXED (equal as syntax trees, so formatting and comments aside). FIXED runs clean."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import pytest

from autograd_doctor import diagnosis
from autograd_doctor.doctor import run_with_doctor
from autograd_doctor.edits.apply import apply
from autograd_doctor.findings import Report
from autograd_doctor.runner import Outcome
from tests.support.runs import doctor, isolated

CAUSES = diagnosis.causes()
IDS = [f"{diagnosis.family_of(m).error}:{m.CATEGORY}" for m in CAUSES]


def run_text(text: str, work: Path) -> tuple[Report, Outcome, list[diagnosis.Selection]]:
    (work / "train.py").write_text(text)
    with isolated(work):
        report, outcome, doctor = run_with_doctor("train.py", [])
    return report, outcome, doctor.selections


def test_every_family_has_causes_and_every_cause_examples() -> None:
    for family in diagnosis.families():
        assert diagnosis.causes(family.error), family.error
    for module in CAUSES:
        assert (module.__doc__ or "").strip(), module.__name__
        for name in ("CATEGORY", "BROKEN", "FIXED", "CULPRIT", "CULPRIT_LINE"):
            assert hasattr(module, name), f"{module.__name__} has no {name}"
        slug = module.__name__.rsplit(".", 1)[1].replace("_", "-")
        assert slug == module.CATEGORY, module.__name__


def test_precedence_only_names_causes_of_the_same_family() -> None:
    for module in CAUSES:
        own = set(diagnosis.categories(diagnosis.family_of(module).error))
        assert set(getattr(module, "OUTRANKS", ())) <= own - {module.CATEGORY}, module.__name__


@pytest.mark.parametrize("module", CAUSES, ids=IDS)
def test_broken_example_is_claimed_by_its_cause_alone(module: ModuleType,
                                                      tmp_path: Path) -> None:
    family = diagnosis.family_of(module)
    report, outcome, selections = run_text(module.BROKEN, tmp_path)
    if family.pattern is None:  # a silent problem: the program runs on, and is reported
        assert outcome.error is None and report.exit_code == 1
    else:
        assert isinstance(outcome.error, RuntimeError)
        assert diagnosis.classify(outcome.error, in_backward=not family.outside_backward) \
            == family.error
    assert report.problems == ()
    assert [(f.error, f.category) for f in report.findings] == [(family.error,
                                                                 module.CATEGORY)]
    assert all(s.overlaps == () for s in selections), [s.overlaps for s in selections]
    finding = report.findings[0]
    culprit = finding.culprit
    if module.CULPRIT is None:
        assert culprit is None or culprit.line is None
    else:
        assert culprit is not None and culprit.expression == module.CULPRIT
        assert culprit.line == module.CULPRIT_LINE
        assert culprit.file == ("train.py" if culprit.line else None)
    if getattr(module, "FIX", "expected") is None:
        assert finding.fix is None
        return
    assert finding.fix is not None
    with isolated(tmp_path):
        fixed = apply(finding.fix)["train.py"]
    assert ast.dump(ast.parse(fixed)) == ast.dump(ast.parse(module.FIXED)), fixed


@pytest.mark.parametrize("module", CAUSES, ids=IDS)
def test_fixed_example_runs_clean(module: ModuleType, tmp_path: Path) -> None:
    report, outcome, _ = run_text(module.FIXED, tmp_path)
    assert outcome.exit_code == 0 and outcome.error is None, outcome.traceback
    assert report.status == "clean" and report.findings == () and report.notes == ()


REBUILT_AFTER_OPTIMIZER = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model[2] = nn.Linear(8, 1)
for step in range(4):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

GROUP_OVER_ORIGINAL = """\
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
model = nn.ModuleDict({"encoder": copy.deepcopy(encoder), "head": nn.Linear(8, 1)})
opt = torch.optim.SGD([{"params": encoder.parameters(), "lr": 0.01},
                       {"params": model["head"].parameters()}], lr=0.1)
for step in range(4):
    loss = model["head"](model["encoder"](torch.randn(8, 4))).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_optimizer_other_model_names_the_change_after_the_optimizer(tmp_path: Path) -> None:
    # The line that swapped the layer is where the optimizer lost it, not the optimizer's.
    report, _, _ = run_text(REBUILT_AFTER_OPTIMIZER, tmp_path)
    [finding] = report.findings
    assert finding.category == "optimizer-other-model"
    assert finding.culprit is not None and finding.culprit.line == 7


def test_optimizer_other_model_replaces_the_module_in_its_group(tmp_path: Path) -> None:
    # The group over the original encoder names the deep copy the loss trains; the head's
    # group is kept as it was.
    report, _, _ = run_text(GROUP_OVER_ORIGINAL, tmp_path)
    [finding] = report.findings
    assert finding.category == "optimizer-other-model" and finding.fix is not None
    with isolated(tmp_path):
        fixed = apply(finding.fix)["train.py"]
    assert '{"params": model["encoder"].parameters(), "lr": 0.01}' in fixed, fixed
    assert '{"params": model["head"].parameters()}' in fixed, fixed


BUILT_BY_A_BUILDER = """\
import copy
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class State:
    net: nn.Module
    ema: nn.Module
    opt: torch.optim.Optimizer


def build():
    net = nn.Linear(4, 1)
    ema = copy.deepcopy(net)
    opt = torch.optim.SGD(ema.parameters(), lr=0.1)
    return State(net, ema, opt)


torch.manual_seed(0)
state = build()
for step in range(4):
    loss = state.net(torch.randn(8, 4)).pow(2).mean()
    state.opt.zero_grad()
    loss.backward()
    state.opt.step()
"""


def test_optimizer_other_model_built_elsewhere_is_named_where_it_was_built(tmp_path: Path
                                                                           ) -> None:
    # The loop knows `state.ema` and `state.net`; the builder, where the replay saw the
    # optimizer made, knows them as `ema` and `net`: the finding and the fix say so.
    (tmp_path / "train.py").write_text(BUILT_BY_A_BUILDER)
    run = doctor(tmp_path, [])  # the CLI: the replay is what saw the optimizer built
    [finding] = run.report["findings"]
    assert (finding["culprit"]["expression"], finding["culprit"]["line"]) == ("ema", 18)
    assert "+    opt = torch.optim.SGD(net.parameters(), lr=0.1)" in finding["fix"]["diff"]


LOSS_HANDED_TO_CLOSURE = """\
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=0.1, max_iter=4)
x, y = torch.randn(16, 4), torch.randn(16, 1)


def closure(loss):
    opt.zero_grad()
    loss.backward()
    return loss


for step in range(2):
    loss = nn.functional.mse_loss(model(x), y)
    opt.step(functools.partial(closure, loss))
    print(loss.item())
"""


def test_loss_handed_to_a_closure_is_computed_inside_it(tmp_path: Path) -> None:
    # The closure takes the loss as an argument: the parameter goes, the computation is
    # copied in (the caller still prints it), and the caller hands the plain closure over.
    report, _, _ = run_text(LOSS_HANDED_TO_CLOSURE, tmp_path)
    [finding] = report.findings
    assert finding.category == "repeated-backward" and finding.fix is not None
    with isolated(tmp_path):
        fixed = apply(finding.fix)["train.py"]
    assert "def closure():" in fixed and "opt.step(closure)" in fixed, fixed
    assert fixed.count("loss = nn.functional.mse_loss(model(x), y)") == 2, fixed
    report, outcome, _ = run_text(fixed, tmp_path)
    assert outcome.exit_code == 0 and report.findings == (), outcome.traceback


ROWS_FROM_ROWS = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
cell = nn.Linear(3, 3)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
for step in range(3):
    traj = torch.zeros(5, 3)
    traj[0] = torch.randn(3)
    for t in range(4):
        traj[t + 1] = torch.tanh(cell(traj[t]))
    loss = traj.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_row_computed_from_the_tensor_it_is_written_into(tmp_path: Path) -> None:
    # Computed first, then written into a fresh copy: the rows the graph saved stay intact.
    (tmp_path / "train.py").write_text(ROWS_FROM_ROWS)
    run = doctor(tmp_path, [])
    [finding] = run.report["findings"]
    assert finding["category"] == "inplace-op"
    assert finding["fix"]["strategy"] == "out-of-place"
    assert finding["fix"]["status"] == "verified"
    assert "+        new_traj = torch.tanh(cell(traj[t]))\n+        traj = traj.clone()\n" \
        "+        traj[t + 1] = new_traj\n" in finding["fix"]["diff"], finding["fix"]["diff"]


LOSS_MODULE_LEFT_OUT = """\
import torch
import torch.nn as nn


class TaskWeights(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n))

    def forward(self, losses):
        return (torch.exp(-self.log_vars) * torch.stack(losses) + self.log_vars).sum()


torch.manual_seed(0)
model = nn.Linear(4, 2)
weigh = TaskWeights(2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    out = model(torch.randn(8, 4))
    loss = weigh([out[:, 0].pow(2).mean(), out[:, 1].abs().mean()])
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

# Nothing steps the loss module's weights, but they get gradients: correct as long as
# something else updates them (here the user's own SGD step), or they belong to a whole
# network kept fixed (a teacher in eval mode).
UPDATED_BY_HAND = LOSS_MODULE_LEFT_OUT.replace("    opt.step()\n", """\
    opt.step()
    with torch.no_grad():
        weigh.log_vars -= 0.1 * weigh.log_vars.grad
        weigh.log_vars.grad = None
""")
TEACHER_LEFT_OUT = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
teacher, student = nn.Linear(4, 2).eval(), nn.Linear(4, 2)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
for step in range(4):
    x = torch.randn(8, 4)
    loss = (student(x) - teacher(x)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_learnable_weights_no_optimizer_holds_are_handed_to_it(tmp_path: Path) -> None:
    report, _, _ = run_text(LOSS_MODULE_LEFT_OUT, tmp_path)
    [finding] = report.findings
    assert finding.category == "optimizer-other-model"
    assert finding.culprit is not None and (finding.culprit.expression,
                                            finding.culprit.line) == ("weigh", 16)
    assert finding.fix is not None
    with isolated(tmp_path):
        fixed = apply(finding.fix)["train.py"]
    assert "SGD([*model.parameters(), *weigh.parameters()], lr=0.1)" in fixed, fixed


@pytest.mark.parametrize("text", [UPDATED_BY_HAND, TEACHER_LEFT_OUT],
                         ids=["updated-by-hand", "teacher"])
def test_weights_updated_by_hand_or_kept_fixed_are_no_finding(text: str,
                                                              tmp_path: Path) -> None:
    report, _, _ = run_text(text, tmp_path)
    assert report.findings == ()


FROZEN_GROUP = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
model.requires_grad_(False)
model[4].requires_grad_(True)
opt = torch.optim.SGD([{"params": model[2].parameters(), "lr": 0.01},
                       {"params": model[4].parameters()}], lr=0.1)
for step in range(STEPS):
    if step == UNFREEZE:
        model[2].requires_grad_(True)
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_group_left_frozen_to_the_end_is_unfrozen_before_the_optimizer(
        tmp_path: Path) -> None:
    report, _, _ = run_text(FROZEN_GROUP.replace("STEPS", "4").replace("UNFREEZE", "-1"),
                            tmp_path)
    [finding] = report.findings
    assert finding.category == "optimizer-other-model"
    assert finding.culprit is not None and finding.culprit.expression == "model[2]"
    assert finding.fix is not None and finding.fix.strategy == "unfreeze"
    with isolated(tmp_path):
        fixed = apply(finding.fix)["train.py"]
    assert "model[2].requires_grad_(True)\nopt = torch.optim.SGD(" in fixed, fixed


@pytest.mark.parametrize("text", [
    # Gradual unfreezing, later than the steps the watch looks at closely.
    FROZEN_GROUP.replace("STEPS", "14").replace("UNFREEZE", "12"),
    # A group of scattered parameters (the biases of a no-decay split), all frozen.
    FROZEN_GROUP.replace("STEPS", "4").replace("UNFREEZE", "-1").replace(
        '{"params": model[2].parameters(), "lr": 0.01}',
        '{"params": [model[0].bias, model[2].bias], "weight_decay": 0.0}')],
    ids=["unfrozen-later", "scattered"])
def test_frozen_groups_unfrozen_later_or_not_built_for_a_module_are_no_finding(
        text: str, tmp_path: Path) -> None:
    report, _, _ = run_text(text, tmp_path)
    assert report.findings == ()


CACHED_FROM_WEIGHTS = """\
import torch
import torch.nn as nn


class Biased(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.bias_table = nn.Parameter(torch.zeros(3, 4))
        self.cached = None

    def forward(self, x):
        if self.cached is None:
            self.cached = torch.tanh(self.bias_table).sum(0)
        return self.lin(x) + self.cached


torch.manual_seed(0)
model = Biased()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_value_cached_from_weights_is_computed_at_every_call(tmp_path: Path) -> None:
    # Stored detached, the table would get a gradient at the first step only: verification
    # counts that as a parameter that stopped learning, and the cache goes instead.
    (tmp_path / "train.py").write_text(CACHED_FROM_WEIGHTS)
    run = doctor(tmp_path, [])
    [finding] = run.report["findings"]
    assert finding["category"] == "stored-state"
    assert finding["fix"]["strategy"] == "recompute-in-loop", finding["fix"]
    assert finding["fix"]["status"] == "verified"
    assert "-        if self.cached is None:\n" in finding["fix"]["diff"]
    [detach] = [a for a in finding["alternatives"] if a["strategy"] == "detach-on-store"]
    assert detach["verification"] == "model.bias_table no longer receives a gradient"


SLICE_SCALED = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
head = nn.Linear(4, 2)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for step in range(3):
    rates = torch.exp(head(torch.randn(8, 4)))
    rates[:, 0] *= 2.0
    loss = rates.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_slice_scaled_in_place_is_written_into_a_copy_in_one_finding(tmp_path: Path
                                                                        ) -> None:
    # `rates[:, 0] = rates[:, 0] * 2.0` would still write into the tensor exp() saved.
    (tmp_path / "train.py").write_text(SLICE_SCALED)
    run = doctor(tmp_path, [])
    [finding] = run.report["findings"]
    assert (finding["category"], finding["culprit"]["expression"]) == ("inplace-op", "rates")
    assert finding["fix"]["status"] == "verified"
    assert "+    new_rates = rates[:, 0] * 2.0\n+    rates = rates.clone()\n" \
        "+    rates[:, 0] = new_rates\n" in finding["fix"]["diff"], finding["fix"]["diff"]


METER = """\
import torch
import torch.nn as nn


class Meter:
    def __init__(self):
        self.hits = torch.zeros(3)
        self.total = torch.zeros(3)

    def update(self, probs):
        self.hits += probs.max(dim=0).values
        self.total += probs.sum(dim=0)


torch.manual_seed(0)
model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
meter = Meter()
for step in range(8):
    probs = model(torch.randn(8, 4)).softmax(-1)
    loss = -probs[:, 0].log().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    meter.update(probs)
"""

HISTORIES = """\
import torch
import torch.nn as nn
from collections import defaultdict


class Trainer:
    def __init__(self):
        self.model = nn.Linear(4, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.history = defaultdict(list)

    def log(self, name, value):
        self.history[name].append(value)

    def step(self):
        out = self.model(torch.randn(8, 4))
        loss = out.pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.log("loss", loss)
        self.log("peak", out.abs().max())


torch.manual_seed(0)
trainer = Trainer()
for step in range(8):
    trainer.step()
    h = trainer.history
    print(step, float(h["loss"][-1]), float(h["peak"][-1]))
"""


@pytest.mark.parametrize("text, category", [(METER, "accumulated-tensor"),
                                            (HISTORIES, "history-list")],
                         ids=["meter-with-two-totals", "dict-of-histories"])
def test_one_container_growing_in_several_places_is_one_finding(
        text: str, category: str, tmp_path: Path) -> None:
    # Two running totals of one meter, two lists of one defaultdict (also reached as `h`):
    # one mistake, fixed at every site by the one finding's fix.
    (tmp_path / "train.py").write_text(text)
    run = doctor(tmp_path, [])
    [finding] = run.report["findings"]
    assert finding["category"] == category
    assert finding["fix"]["status"] == "verified"
