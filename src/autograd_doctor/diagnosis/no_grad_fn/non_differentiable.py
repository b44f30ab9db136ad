"""Non-differentiable: the loss is computed from the result of an op that has no gradient
(`argmax`, `round`, a comparison, a cast to integers).

Such ops return integers or piecewise-constant values: their gradient is zero or undefined,
so PyTorch gives the result no history. A loss on predicted class indices cannot train the
model.

Compute the loss on the scores themselves: cross-entropy on the logits instead of a
regression on `argmax`, a soft (sigmoid, softmax) version instead of a hard threshold. For
a hard threshold on probabilities the fix is mechanical (the probabilities are the soft
mask); otherwise the right loss depends on what the target means, and no edit is proposed.
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.no_grad_fn import LEAF_TRAP
from autograd_doctor.diagnosis.no_grad_fn.evidence import NON_DIFFERENTIABLE, Cut, claim, where
from autograd_doctor.edits.operations import Remedy, replace_node
from autograd_doctor.source import reading

CATEGORY = "non-differentiable"
CULPRIT = "preds"
CULPRIT_LINE = 9  # line of BROKEN
FIX = None  # no mechanical fix for argmax: the loss has to be chosen again

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(6, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 6), torch.randint(0, 3, (8,))
    preds = model(x).argmax(1)
    loss = (preds - y).float().pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("    preds = model(x).argmax(1)\n", "    logits = model(x)\n").replace(
    "    loss = (preds - y).float().pow(2).mean()\n",
    "    loss = nn.functional.cross_entropy(logits, y)\n")


def match(cut: Cut) -> Claim | None:
    node = cut.points.get(NON_DIFFERENTIABLE)
    if node is None:
        return None
    op = reading.text(node)
    why = (
        f"`{cut.name}` at {where(cut.file, cut.stmt.lineno)} comes from `{op}`, which has no "
        f"gradient, so the loss built from it has no history."
    )
    hint = (f"Compute the loss on the scores themselves (for example cross-entropy on the "
            f"logits instead of a loss on `argmax`). {LEAF_TRAP}")
    soft, straight = _soft(cut, node), _straight_through(cut, node)
    # Inside a model's forward the hard step is the model's own nonlinearity (a spike, a
    # quantiser): keep it and let gradients through it; in a loss, the scores are the soft
    # version the loss can learn from.
    if any(f.function == "forward" for f in cut.stack):
        soft, straight = straight, soft
        hint = (f"Inside a model a hard step needs a surrogate gradient: keep its values in "
                f"the forward and pass gradients through it (a straight-through estimator, "
                f"or a smooth surrogate derivative). {LEAF_TRAP}")
    remedy = soft or straight
    return claim(cut, CATEGORY, why, hint, remedy, cut.cut_file, cut.cut_statement.lineno,
                 (straight,) if soft and straight else ())


_CASTS = ("float", "double", "half", "to", "type")


def _soft(cut: Cut, node: ast.AST) -> Remedy | None:
    """`(probs >= 0.5).float()` in a loss: the scores themselves are the soft mask the
    loss can learn from (a Dice or Tversky loss on probabilities). Only for an upper
    threshold that is not zero (a cut at zero is on logits, not on probabilities)."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1 or not isinstance(
            node.ops[0], (ast.Gt, ast.GtE)):
        return None
    threshold = node.comparators[0]
    if isinstance(threshold, ast.Constant) and threshold.value == 0:
        return None
    file = cut.cut_file
    statement = cut.cut_statement
    replaced = _with_cast(statement, node)  # the cast around it goes too
    scores = reading.segment(file, node.left)
    return Remedy("remove-threshold", f"compute the loss on {scores} instead of its hard "
                  f"threshold", file, statement.lineno, (replace_node(file, replaced, scores),))


_STEPS = ("round", "floor", "ceil", "sign", "trunc")


def _straight_through(cut: Cut, node: ast.AST) -> Remedy | None:
    """A hard step applied elementwise (a threshold, `round`) keeps its forward values and
    passes the gradient of its input straight through: `x + (step(x) - x).detach()`. What
    the program computes is unchanged; only backward sees a slope."""
    file, statement = cut.cut_file, cut.cut_statement
    source: ast.expr | None = None
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(
            node.ops[0], (ast.Gt, ast.GtE, ast.Lt, ast.LtE)):
        source = node.left
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in _STEPS:
        # `torch.round(x)` or `x.round()`
        on_torch = reading.text(node.func.value) == "torch"
        source = (node.args[0] if node.args else None) if on_torch else node.func.value
    if source is None or not isinstance(node, ast.expr):
        return None
    replaced = _with_cast(statement, node)
    x, hard = reading.segment(file, source), reading.segment(file, replaced)
    x = x if isinstance(source, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) \
        else f"({x})"
    return Remedy("straight-through-estimator",
                  f"keep the hard step's values and pass gradients straight through to {x}",
                  file, statement.lineno,
                  (replace_node(file, replaced, f"({x} + ({hard} - {x}).detach())"),))


def _with_cast(statement: ast.stmt, node: ast.expr) -> ast.expr:
    """`node`, or the cast around it in `statement` (`(probs > 0.5).float()`)."""
    for parent in ast.walk(statement):
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and \
                parent.func.value is node and parent.func.attr in _CASTS:
            return parent
    return node
