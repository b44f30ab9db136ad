"""Unreached: parameters handed to an optimizer never received a gradient, and none of the
known reasons could be shown. The report lists them, grouped by module."""

from __future__ import annotations

from autograd_doctor.diagnosis.gradients import NoGrad
from autograd_doctor.diagnosis.remedy import Diagnosis
from autograd_doctor.diagnosis.silent_common import silent_finding, summary

ERROR = "silent-no-grad"
CATEGORY = "unreached"
FALLBACK = True


def match(ev: NoGrad) -> Diagnosis | None:
    if not ev.alarm:
        return None
    message = (
        f"{summary(ev)}. Check that the loss is computed from these modules' outputs without "
        f"`.detach()`, `.data`, NumPy or `torch.no_grad()` in between, and that the optimizer "
        f"holds the parameters of the model the loss comes from."
    )
    return silent_finding(ev, CATEGORY, message, None, None)
