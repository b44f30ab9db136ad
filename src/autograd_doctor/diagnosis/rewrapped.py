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
import copy

import torch

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
_NUMPY = ("np", "numpy")
_RENAMED = {"clip": "clamp", "absolute": "abs", "power": "pow", "concatenate": "cat"}


def unwrap(node: ast.AST) -> ast.expr | None:
    """`torch.tensor(np.clip(f(x).detach().numpy(), 0, None))` -> `torch.clamp(f(x), 0,
    None)`: the computation kept in torch. None when it cannot be written in torch."""
    if not isinstance(node, ast.Call) or not node.args or source.text(node.func) not in (
            "torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor",
            "torch.FloatTensor"):
        return None
    inner = _InTorch().visit(copy.deepcopy(node.args[0]))
    names = {n.id for n in ast.walk(inner) if isinstance(n, ast.Name)}
    text = source.text(node.args[0])
    left = any(f".{m}()" in text for m in _LEAVING) or ".data" in text
    return inner if left and not names & set(_NUMPY) else None


class _InTorch(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _LEAVING and not node.args:
            return func.value
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in _NUMPY:
            name = _RENAMED.get(func.attr, func.attr)
            if hasattr(torch, name):
                node.func = ast.Attribute(ast.Name("torch", ast.Load()), name, ast.Load())
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        return node.value if node.attr == "data" else node


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
            operations=(replace_node(cut.file, wrapper, source.text(inner)),),
        )
    message = (
        f"`{cut.name}` at {where(cut.file, cut.stmt.lineno)} is rebuilt from plain numbers "
        f"(`.item()`, `.tolist()` or NumPy, then `torch.tensor`), so it has no history. Keep "
        f"the computation from the model output to the loss in torch; use `.item()` only "
        f"for logging. {LEAF_TRAP}"
    )
    return cut_finding(cut, message, remedy, cut.file, cut.stmt.lineno)

