"""Detached: the tensor the loss is built from went through `.detach()` or `.data`.

Both return a tensor that shares the values but has no history; everything computed from it
is cut off from the model. `.data` is the older spelling and also hides in-place writes
from autograd.

Remove the `.detach()` (or `.data`) on the path from the model to the loss; detach only
what must not be trained through (targets, logged values, a memory bank).
"""

from __future__ import annotations

import ast

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.no_grad_fn import LEAF_TRAP
from autograd_doctor.diagnosis.no_grad_fn.evidence import DETACH, Cut, claim, where
from autograd_doctor.edits.operations import Remedy, replace_node
from autograd_doctor.source import patterns, reading

CATEGORY = "detached"
CULPRIT = "feats"
CULPRIT_LINE = 9  # line of BROKEN
OUTRANKS = ("non-differentiable",)

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


def match(cut: Cut) -> Claim | None:
    node = cut.points.get(DETACH)
    found = patterns.history_cut(node) if node is not None else None
    if node is None or found is None:
        return None
    kept = found[1]
    remedy = None
    file, line = cut.cut_file, cut.cut_statement.lineno
    if isinstance(node, ast.expr):
        ops = [replace_node(file, node, reading.segment(file, kept))]
        for other_file, other in cut.others:
            other_cut = patterns.history_cut(other)
            if other_cut is not None and isinstance(other, ast.expr):
                ops.append(replace_node(other_file, other,
                                        reading.segment(other_file, other_cut[1])))
        remedy = Remedy(
            strategy="remove-detach",
            description=f"keep the history of {cut.name}" + (
                f" (and {len(ops) - 1} more cut{'s' if len(ops) > 2 else ''} on the same path)"
                if len(ops) > 1 else ""),
            file=file,
            line=line,
            operations=tuple(ops),
        )
    what = "`.detach()`" if found[0] == "detach" else "`.data`"
    why = (
        f"`{cut.name}` is made with {what} at {where(file, line)}, which cuts it (and the "
        f"loss built from it) off from the model."
    )
    hint = f"Remove it on the path from the model to the loss. {LEAF_TRAP}"
    return claim(cut, CATEGORY, why, hint, remedy, file, line)
