"""Rewrapped: a result left PyTorch (`.item()`, `.tolist()`, `.numpy()`) and came back
through `torch.tensor(...)` or `torch.from_numpy(...)`.

The new tensor holds the numbers but not the history: autograd cannot see through Python
floats or NumPy arrays. `torch.tensor(loss.item(), requires_grad=True)` makes backward
run, but on a leaf that is connected to nothing, so the model learns nothing.

Keep the computation in torch from the model output to the loss; use `.item()` only for
logging.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.cut import Cut
from autograd_doctor.diagnosis.cut_common import LEAF_TRAP, cut_finding, where
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy, replace_node
from autograd_doctor.graph import source

ERROR = "no-grad-fn"
CATEGORY = "rewrapped"
CULPRIT = "loss"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = torch.tensor(nn.functional.mse_loss(model(x), y).item())
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("torch.tensor(nn.functional.mse_loss(model(x), y).item())",
                       "nn.functional.mse_loss(model(x), y)")

_LEAVING = ("item", "numpy", "tolist", "cpu", "detach", "clone")


def unwrap(node: ast.AST) -> ast.expr | None:
    """`torch.tensor(f(x).detach().numpy())` -> `f(x)`: the torch value before it left."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    inner: ast.expr = node.args[0]
    stripped = False
    while True:
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                and inner.func.attr in _LEAVING and not inner.args:
            inner, stripped = inner.func.value, True
        elif isinstance(inner, ast.Attribute) and inner.attr == "data":
            inner, stripped = inner.value, True
        else:
            break
    return inner if stripped else None


def match(cut: Cut) -> Diagnosis | None:
    if cut.category != CATEGORY:
        return None
    remedy = None
    wrapper = next((n for n in ast.walk(cut.stmt) if isinstance(n, ast.Call)
                    and unwrap(n) is not None), None)
    if wrapper is not None:
        inner = unwrap(wrapper)
        assert inner is not None
        remedy = Remedy(
            strategy="keep-in-torch",
            description=f"compute {cut.name} in torch, without leaving and re-wrapping it",
            file=cut.file,
            line=cut.stmt.lineno,
            operations=(replace_node(cut.file, wrapper, source.segment(cut.file, inner)),),
        )
    message = (
        f"`{cut.name}` at {where(cut.file, cut.stmt.lineno)} is rebuilt from plain numbers "
        f"(`.item()`, `.tolist()` or NumPy, then `torch.tensor`), so it has no history. Keep "
        f"the computation from the model output to the loss in torch; use `.item()` only "
        f"for logging. {LEAF_TRAP}"
    )
    return cut_finding(cut, message, remedy, cut.file, cut.stmt.lineno)
