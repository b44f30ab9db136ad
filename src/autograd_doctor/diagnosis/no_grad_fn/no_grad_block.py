"""No-grad block: the forward that feeds the loss ran under `torch.no_grad()` or
`torch.inference_mode()` (a `with` block, or a function decorated with it).

Inside such a block PyTorch records no graph, so what comes out has no history and the
loss built from it cannot be backwarded. This often happens when pseudo-labels or metrics
are computed under no_grad and the model outputs needed for the loss end up inside the same
block, or when an evaluation helper is reused for training.

Move the computations the loss needs out of the block; keep under no_grad only what must
not be trained through (pseudo-labels, targets, metrics).
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.no_grad_fn import LEAF_TRAP
from autograd_doctor.diagnosis.no_grad_fn.evidence import (
    NO_GRAD_BLOCK,
    NO_GRAD_CALL,
    Cut,
    claim,
    where,
)
from autograd_doctor.edits.operations import Delete, Move, Operation, Remedy
from autograd_doctor.source import reading

CATEGORY = "no-grad-block"
CULPRIT = "outputs"
CULPRIT_LINE = 12  # line of BROKEN
# Nothing recorded inside the block: whatever else the statement does comes after that.
OUTRANKS = ("rewrapped", "detached", "non-differentiable")

BROKEN = """\
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(6, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, unlabeled = torch.randn(8, 6), torch.randn(8, 6)
    y = torch.randint(0, 3, (8,))
    with torch.no_grad():
        outputs = model(x)
        pseudo = model(unlabeled).argmax(1)
    loss = F.cross_entropy(outputs, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace(
    "    with torch.no_grad():\n        outputs = model(x)\n",
    "    outputs = model(x)\n    with torch.no_grad():\n")


def match(cut: Cut) -> Claim | None:
    at = cut.points.get(NO_GRAD_BLOCK)
    remedy: Remedy | None
    if isinstance(at, ast.With):
        block = f"the `{reading.line_text(cut.file, at.lineno)}` block at " \
                f"{where(cut.file, at.lineno)}"
        cut_file, cut_line = cut.file, at.lineno
        remedy = _move_out(cut, at)
    elif isinstance(decorator := cut.points.get(NO_GRAD_CALL), ast.expr):
        cut_file, cut_line = cut.decorator_file, decorator.lineno
        block = (f"a function decorated with `@{reading.text(decorator)}` "
                 f"({where(cut_file, cut_line)})")
        remedy = Remedy("move-out-of-no-grad", "let the forward record a graph",
                        cut_file, cut_line, (Delete(cut_file, cut_line, cut_line),))
    else:
        return None
    why = (
        f"`{cut.name}` ({where(cut.file, cut.stmt.lineno)}) is computed inside {block}, so "
        f"it has no history and neither has the loss built from it."
    )
    hint = (f"Compute what the loss needs outside the block and keep under no_grad only what "
            f"must not be trained through (pseudo-labels, targets, metrics). {LEAF_TRAP}")
    return claim(cut, CATEGORY, why, hint, remedy, cut_file, cut_line)


def _move_out(cut: Cut, block: ast.With) -> Remedy:
    indent = reading.indent_of(cut.file, block.lineno)
    ops: list[Operation] = [
        Move(cut.file, s.lineno, s.end_lineno or s.lineno, block.lineno, indent)
        for s in cut.chain
    ]
    if len(cut.chain) == len(block.body):
        ops.append(Delete(cut.file, block.lineno, block.body[0].lineno - 1))
    names = ", ".join(sorted({reading.text(t) for s in cut.chain for t in reading.targets(s)}))
    return Remedy(
        strategy="move-out-of-no-grad",
        description=f"compute {names} outside the no_grad block",
        file=cut.file,
        line=block.lineno,
        operations=tuple(ops),
    )
