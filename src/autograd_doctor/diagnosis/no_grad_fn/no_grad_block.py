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
    NO_GRAD_SWITCH,
    Cut,
    claim,
    where,
)
from autograd_doctor.edits.operations import Delete, Remedy, Replace
from autograd_doctor.edits.strategies import move_out_of_no_grad
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
    switch = cut.points.get(NO_GRAD_SWITCH)
    block_file = cut.cut_file
    if at is None and isinstance(switch, ast.With):
        # `with torch.set_grad_enabled(cfg.flag):`, off in this run: a block
        at, block_file = switch, cut.decorator_file or cut.cut_file
    remedy: Remedy | None
    if isinstance(at, ast.With):
        cut_file, cut_line = block_file, at.lineno
        block = f"the `{reading.line_text(cut_file, at.lineno)}` block at " \
                f"{where(cut_file, at.lineno)}"
        remedy = _move_out(cut, at, block_file)
    elif isinstance(switch, ast.stmt):
        cut_file, cut_line = cut.decorator_file, switch.lineno
        block = (f"grad mode switched off at {where(cut_file, cut_line)} "
                 f"(`{reading.line_text(cut_file, cut_line)}`) and never switched back on")
        remedy = _scoped(cut_file, switch)
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


def _move_out(cut: Cut, block: ast.With, file: str) -> Remedy:
    """The loss's statements in the block move out; when the cut happened deeper (in a
    decoder's forward called from the block), the block's own statement that made the call."""
    chain = [s for s in cut.chain if reading.inside(s, block) and s is not block]
    if not chain:
        chain = [f.statement for f in cut.stack if f.file == file and f.statement is not None
                 and f.statement is not block and reading.inside(f.statement, block)][:1]
    return move_out_of_no_grad(file, block, chain or cut.chain)


def _scoped(file: str, switch: ast.stmt) -> Remedy | None:
    """`torch.set_grad_enabled(False)` inside a function: what follows it in its block goes
    under `with torch.no_grad():` instead, so grad mode is back on when the block ends.
    At module level the switch is removed (it would turn off the training that follows)."""
    tree = reading.parse(file)
    block = reading.block_of(tree, switch) if tree is not None else None
    if block is None:
        return None
    function = reading.enclosing_function(tree, switch) if tree is not None else None
    if function is None:
        return Remedy("use-no-grad-context", "remove the global switch", file, switch.lineno,
                      (Delete(file, switch.lineno, switch.end_lineno or switch.lineno),))
    rest = block[block.index(switch) + 1:]
    if not rest:
        return None
    indent = reading.indent_of(file, switch.lineno)
    end = rest[-1].end_lineno or rest[-1].lineno
    body = "".join(reading.lines(file)[rest[0].lineno - 1:end])
    # From the switch's column to the end of the block: the switch becomes the `with`, and
    # the statements after it (already indented like it) go four spaces further in.
    text = "with torch.no_grad():\n" + "".join(
        "    " + line if line.strip() else line for line in body.splitlines(keepends=True))
    last = reading.lines(file)[end - 1].rstrip("\n")
    return Remedy("use-no-grad-context", "put what follows the switch under torch.no_grad()",
                  file, switch.lineno,
                  (Replace(file, switch.lineno, len(indent), end, len(last),
                           text.rstrip("\n")),))
