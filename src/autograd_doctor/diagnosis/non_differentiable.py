"""Non-differentiable: the loss is computed from the result of an op that has no gradient
(`argmax`, `round`, a comparison, a cast to integers).

Such ops return integers or piecewise-constant values: their gradient is zero or undefined,
so PyTorch gives the result no history. A loss on predicted class indices cannot train the
model.

Compute the loss on the scores themselves: cross-entropy on the logits instead of a
regression on `argmax`, a soft (sigmoid, softmax) version instead of a hard threshold.
"""

from __future__ import annotations

from autograd_doctor.diagnosis.cut import Cut
from autograd_doctor.diagnosis.cut_common import LEAF_TRAP, cut_finding, where
from autograd_doctor.diagnosis.remedy import Diagnosis
from autograd_doctor.graph import source

ERROR = "no-grad-fn"
CATEGORY = "non-differentiable"


def match(cut: Cut) -> Diagnosis | None:
    if cut.category != CATEGORY:
        return None
    op = source.text(cut.at)
    message = (
        f"`{cut.name}` at {where(cut.file, cut.stmt.lineno)} comes from `{op}`, which has no "
        f"gradient, so the loss built from it has no history. Compute the loss on the "
        f"scores themselves (for example cross-entropy on the logits instead of a loss on "
        f"`argmax`). {LEAF_TRAP}"
    )
    return cut_finding(cut, message, None, cut.file, cut.stmt.lineno)
