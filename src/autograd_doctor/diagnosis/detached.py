"""Detached: the tensor the loss is built from went through `.detach()` or `.data`.

Both return a tensor that shares the values but has no history; everything computed from it
is cut off from the model. `.data` is the older spelling and also hides in-place writes
from autograd.

Remove the `.detach()` (or `.data`) on the path from the model to the loss; detach only
what must not be trained through (targets, logged values, a memory bank).
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.cut import Cut
from autograd_doctor.diagnosis.cut_common import LEAF_TRAP, cut_finding, where
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy, replace_node
from autograd_doctor.graph import source

ERROR = "no-grad-fn"
CATEGORY = "detached"
CULPRIT = "feats"

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone, head = nn.Linear(6, 4), nn.Linear(4, 1)
head.requires_grad_(False)
opt = torch.optim.SGD(backbone.parameters(), lr=0.1)
for step in range(3):
    feats = backbone(torch.randn(8, 6)).detach()
    loss = head(feats).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("backbone(torch.randn(8, 6)).detach()", "backbone(torch.randn(8, 6))")


def match(cut: Cut) -> Diagnosis | None:
    if cut.category != CATEGORY:
        return None
    node = cut.at
    kept = node.func.value if isinstance(node, ast.Call) and isinstance(
        node.func, ast.Attribute) else getattr(node, "value", None)
    remedy = None
    if isinstance(kept, ast.expr) and isinstance(node, ast.expr):
        remedy = Remedy(
            strategy="remove-detach",
            description=f"keep the history of {cut.name}",
            file=cut.file,
            line=cut.stmt.lineno,
            operations=(replace_node(cut.file, node, source.segment(cut.file, kept)),),
        )
    what = "`.detach()`" if isinstance(node, ast.Call) else "`.data`"
    message = (
        f"`{cut.name}` is made with {what} at {where(cut.file, cut.stmt.lineno)}, which cuts "
        f"it (and the loss built from it) off from the model. Remove it on the path from the "
        f"model to the loss. {LEAF_TRAP}"
    )
    return cut_finding(cut, message, remedy, cut.file, cut.stmt.lineno)
