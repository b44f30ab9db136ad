"""Unreached: parameters handed to an optimizer never received a gradient, and none of the
known reasons could be shown: often a submodule that the forward never calls. The report
lists them, grouped by module.

Check that the loss is computed from these modules' outputs without `.detach()`, `.data`,
NumPy or `torch.no_grad()` in between, and that the optimizer holds the parameters of the
model the loss comes from. There is no mechanical fix: what the module was meant to do
decides where it belongs.
"""

from __future__ import annotations

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.silent_no_grad.evidence import NoGrad, claim, summary

CATEGORY = "unreached"
CULPRIT = "model.decoder"
CULPRIT_LINE = None
FALLBACK = True
FIX = None  # no mechanical fix

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 3)
        self.decoder = nn.Linear(3, 8)

    def forward(self, x):
        return self.encoder(x)


model = AutoEncoder()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(6):
    x = torch.randn(16, 8)
    loss = (model(x) - x[:, :3]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("return self.encoder(x)", "return self.decoder(self.encoder(x))").replace(
    "(model(x) - x[:, :3])", "(model(x) - x)")


def match(ev: NoGrad) -> Claim | None:
    if not ev.missing:
        return None
    why = f"{summary(ev)}."
    hint = ("Check that the loss is computed from these modules' outputs without `.detach()`, "
            "`.data`, NumPy or `torch.no_grad()` in between, and that the optimizer holds the "
            "parameters of the model the loss comes from.")
    return claim(ev, CATEGORY, why, hint, None, None)
