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

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.no_grad_fn import LEAF_TRAP
from autograd_doctor.diagnosis.no_grad_fn.evidence import LEFT_TORCH, Cut, claim, where
from autograd_doctor.edits.operations import Remedy, replace_node
from autograd_doctor.edits.strategies import keep_in_torch
from autograd_doctor.source import patterns, reading

CATEGORY = "rewrapped"
CULPRIT = "loss"
CULPRIT_LINE = 9  # line of BROKEN
# Leaving torch is the bigger step: it wins over a `.detach()` inside it.
OUTRANKS = ("detached", "non-differentiable")

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

def match(cut: Cut) -> Claim | None:
    if LEFT_TORCH not in cut.points:
        return None
    remedy = None
    file, at = cut.cut_file, cut.cut_statement
    wrapper = next((n for n in ast.walk(at) if isinstance(n, ast.Call)
                    and patterns.unwrap(n) is not None), None)
    if wrapper is not None:
        inner = patterns.unwrap(wrapper)
        assert inner is not None
        remedy = Remedy(
            strategy="keep-in-torch",
            description=f"compute {cut.name} in torch, without leaving and re-wrapping it",
            file=file,
            line=at.lineno,
            operations=(replace_node(file, wrapper, reading.text(inner)),),
        )
    sites: list[tuple[str, ast.AST, ast.stmt]] = [
        (f.file, f.scope, f.statement) for f in cut.stack
        if f.scope is not None and f.statement is not None] or [(file, cut.scope, at)]
    left = [(f.file, f.statement) for f in cut.left[:1] if f.statement is not None]
    translated = [r for r in (keep_in_torch(sites, False, left),
                              keep_in_torch(sites, True, left)) if r]
    if remedy is not None and translated and any(
            reading.function_called(file, n) is not None for n in ast.walk(wrapper or at)
            if isinstance(n, ast.Call)):
        # The value comes from a helper of the user's: its body has to go to torch too.
        translated.append(remedy)
        remedy = None
    alternatives = tuple(translated) if remedy is not None else tuple(translated[1:])
    remedy = remedy or (translated[0] if translated else None)
    rebuilt = f" (rebuilt at {where(file, at.lineno)})" if cut.site is not None and (
        file, at.lineno) != (cut.file, cut.stmt.lineno) else ""
    why = (
        f"`{cut.name}` at {where(cut.file, cut.stmt.lineno)} is rebuilt from plain numbers"
        f"{rebuilt} (`.item()`, `.tolist()` or NumPy, then `torch.tensor`), so it has no "
        f"history."
    )
    hint = (f"Keep the computation from the model output to the loss in torch; use `.item()` "
            f"only for logging. {LEAF_TRAP}")
    # The graph was cut where the value left torch (`.numpy()`, `.item()`), when the replay
    # saw it; the re-wrap only made a new tensor of the numbers.
    gone = cut.gone or next((f for f in cut.left if f.statement is not None), None)
    stmt = gone.statement if gone is not None else None
    place = (gone.file, stmt.lineno) if gone is not None and stmt is not None else (
        file, at.lineno)
    return claim(cut, CATEGORY, why, hint, remedy, *place, alternatives)

