"""The one finding builder, used by every family. A cause answers with a Claim (why, the
hint, where, the edit that fixes it); the registry turns it into a Diagnosis, a Finding in
the parts a reader needs (what happened, why, where, the hint) plus the edit. Torch-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autograd_doctor.edits.operations import Remedy
from autograd_doctor.findings import JSON, Culprit, Finding, Location


@dataclass(frozen=True)
class Claim:
    """What a cause says about the evidence it recognised."""

    category: str
    why: str  # what happened here and why, naming the user's tensor and lines
    hint: str  # what to do (and what not to), one or two sentences
    culprit: Culprit | None = None
    failing: Location | None = None
    freeing: Location | None = None
    details: dict[str, JSON] = field(default_factory=dict)
    remedy: Remedy | None = None
    # Other edits that fit, in order of preference, for when the first one does not train.
    alternatives: tuple[Remedy, ...] = ()


@dataclass(frozen=True)
class Diagnosis:
    """A finding, and what to change to fix it (the remedies in order of preference)."""

    finding: Finding
    remedies: tuple[Remedy, ...] = ()


def build(error: str, title: str, claim: Claim) -> Diagnosis:
    details = {k: v for k, v in claim.details.items() if v is not None}
    return Diagnosis(
        Finding(
            error=error,
            category=claim.category,
            message=f"{claim.why} {claim.hint}".strip(),
            culprit=claim.culprit,
            failing_backward=claim.failing,
            freeing_backward=claim.freeing,
            details=details,
            title=title,
            hint=claim.hint,
        ),
        tuple(r for r in (claim.remedy, *claim.alternatives) if r is not None),
    )
