"""What the silent-no-grad causes share: the module that learns nothing, and the finding."""

from __future__ import annotations

import ast

from autograd_doctor.capture.ledger import BackwardRecord, FrameInfo
from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.gradients import NoGrad, module_of
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy
from autograd_doctor.findings import Finding
from autograd_doctor.graph import source


def starved(ev: NoGrad) -> str:
    """`model` when every parameter missed out, else the top-level submodules that did."""
    roots = sorted({module_of(m) for m in ev.missing if not m.startswith("<")})
    if len(ev.missing) == ev.total and len(roots) == 1:
        return roots[0]
    tops = [m for m in ev.modules if m.count(".") >= 1] or ev.modules
    return ", ".join(tops) if tops else ", ".join(roots) or "the model"


def last_backward(ev: NoGrad) -> BackwardRecord | None:
    done = [r for r in ev.records if not r.failed]
    return max(done, key=lambda r: r.order) if done else None


def backward_statement(record: BackwardRecord | None) -> tuple[FrameInfo, ast.stmt] | None:
    site = record.site if record else None
    if site is None:
        return None
    scope = source.scope_of(site.file, site.function, site.first_line)
    stmt = source.statement_at(scope, site.line) if scope is not None else None
    return (site, stmt) if stmt is not None else None


def silent_finding(ev: NoGrad, category: str, message: str, culprit_line: tuple[str, int] | None,
                   remedy: Remedy | None) -> Diagnosis:
    module = starved(ev)
    file, line = culprit_line if culprit_line else (None, None)
    record = last_backward(ev)
    return Diagnosis(
        Finding(
            error="silent-no-grad",
            category=category,
            message=message,
            culprit=places.culprit(module, "attribute" if "." in module else "local", file,
                                   line),
            failing_backward=places.frame_location(record.site) if record else None,
            freeing_backward=None,
            details={"parameters": ev.missing[:20], "modules": ev.modules,
                     "without_gradient": len(ev.missing), "of": ev.total, "steps": ev.steps},
        ),
        remedy,
    )


def summary(ev: NoGrad) -> str:
    return (f"None of the {len(ev.missing)} parameters of `{starved(ev)}` handed to the "
            f"optimizer received a gradient in the first {ev.steps} steps"
            if len(ev.missing) == ev.total else
            f"{len(ev.missing)} of the {ev.total} parameters handed to the optimizer "
            f"({', '.join(ev.modules) or ', '.join(ev.missing[:5])}) received no gradient in "
            f"the first {ev.steps} steps")
