"""Optimizer over another model: the optimizer holds parameters the loss never reaches,
while the parameters the loss does reach are in no optimizer.

Typically a copy-paste slip (`Adam(teacher.parameters())` while the loss comes from
`student`), or a model rebuilt after the optimizer was created. Backward runs and fills
gradients, the optimizer steps, and nothing that matters changes.

Build the optimizer over the parameters of the model the loss comes from.
"""

from __future__ import annotations

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.silent_no_grad.evidence import NoGrad, claim, module_of, summary
from autograd_doctor.edits.operations import Remedy, replace_node
from autograd_doctor.graph.objects import construction

CATEGORY = "optimizer-other-model"
CULPRIT = "teacher"
CULPRIT_LINE = 6  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
teacher, student = nn.Linear(4, 1), nn.Linear(4, 1)
opt = torch.optim.SGD(teacher.parameters(), lr=0.1)
for step in range(4):
    x = torch.randn(8, 4)
    loss = (student(x) - teacher(x).detach()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("SGD(teacher.parameters()", "SGD(student.parameters()")


def match(ev: NoGrad) -> Claim | None:
    owners = sorted({module_of(n) for n in ev.reached_outside})
    if not ev.alarm or ev.on_leaf or not ev.records or len(ev.missing) != ev.total \
            or not owners or len(ev.reached_outside) < len(
                [n for n in ev.reached if not n.startswith("<")]):
        return None
    trained = owners[0]
    built = construction(ev.optimizer, ev.scopes, ev.files)
    remedy = None
    if built is not None:
        file, stmt, arg = built
        remedy = Remedy("optimizer-params", f"build the optimizer over {trained}'s parameters",
                        file, stmt.lineno, (replace_node(file, arg, f"{trained}.parameters()"),))
    why = (
        f"{summary(ev)}. The loss reaches the parameters of `{trained}` instead, which no "
        f"optimizer holds: the optimizer was built over the wrong model."
    )
    hint = f"Build it over `{trained}.parameters()`."
    return claim(ev, CATEGORY, why, hint, (built[0], built[1].lineno) if built else None,
                 remedy)
