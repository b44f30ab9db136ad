"""In-place module: an activation built with `inplace=True` (`nn.ReLU(inplace=True)`,
`F.relu(x, inplace=True)`) overwrote a tensor that the previous op saved for backward.

`inplace=True` saves memory only when nothing else needs the input. After ops that save
their output (sigmoid, tanh, softmax, batch norm in some modes) or when the input is also
used elsewhere (a residual branch), the overwrite breaks backward.

Build the activation with `inplace=False` (the default).
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.inplace_common import describe_saved, inplace_finding
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy, replace_node
from autograd_doctor.diagnosis.versions import Inplace, Write
from autograd_doctor.graph import source

ERROR = "inplace-modified"
CATEGORY = "inplace-module"
CULPRIT = "self.act"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(4, 8), nn.Linear(8, 1)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.fc2(self.act(torch.sigmoid(self.fc1(x))))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("nn.ReLU(inplace=True)", "nn.ReLU(inplace=False)")


def match(ev: Inplace) -> Diagnosis | None:
    if ev.step is not None or not ev.writes or ev.writes[0].how not in ("module", "keyword"):
        return None
    write = ev.writes[0]
    line = write.stmt.lineno
    expression, kind = _name(write)
    message = (
        f"{describe_saved(ev)} was saved for backward by the previous operation, then "
        f"overwritten by the in-place activation built at "
        f"{places.user_path(write.file)}:{line} (`{source.line_text(write.file, line)}`). "
        f"inplace=True only saves memory when nothing needs the input afterwards; here "
        f"backward does. Build it with inplace=False."
    )
    return inplace_finding(ev, CATEGORY, message, expression, kind, (write.file, line),
                           _not_inplace(write))


def _name(write: Write) -> tuple[str, str]:
    """`self.act` for `self.act = nn.ReLU(inplace=True)`; the call itself otherwise."""
    stmt = write.stmt
    if write.how == "module" and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = source.text(stmt.targets[0])
        return target, "attribute" if "." in target else "local"
    if write.how == "keyword":
        return write.target, "local"
    call = _inplace_call(write)
    return (source.segment(write.file, call) if call else write.target), "expression"


def _inplace_call(write: Write) -> ast.Call | None:
    for node in ast.walk(write.stmt):
        if isinstance(node, ast.Call) and any(
                k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in node.keywords):
            return node
    return None


def _not_inplace(write: Write) -> Remedy | None:
    call = _inplace_call(write)
    if call is None:
        return None
    keyword = next(k for k in call.keywords if k.arg == "inplace")
    return Remedy(
        strategy="inplace-false",
        description="build the activation with inplace=False",
        file=write.file,
        line=write.stmt.lineno,
        operations=(replace_node(write.file, keyword.value, "False"),),
    )
