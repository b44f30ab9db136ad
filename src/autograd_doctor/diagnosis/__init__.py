"""diagnose(): a captured failure -> Diagnoses, by asking every cause module in this package.

Each cause is one module with ERROR, CATEGORY, a docstring for users, BROKEN/FIXED
examples and `match(evidence)`. Adding a cause means adding a file; nothing else changes.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType
from typing import Any

from autograd_doctor.capture.hooks import Failure
from autograd_doctor.diagnosis import access, cut, stale, versions
from autograd_doctor.diagnosis.remedy import Diagnosis

# How each kind of error gathers its evidence.
GATHERERS: dict[str, Callable[[Failure], Any]] = {
    "backward-twice": stale.gather,
    "saved-tensor-access": access.gather,
    "inplace-modified": versions.gather,
    "no-grad-fn": cut.gather,
}


@functools.cache
def causes() -> tuple[ModuleType, ...]:
    """Every module here with a CATEGORY and a match(); the others are shared machinery."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "CATEGORY") and hasattr(module, "match"):
            found.append(module)
    return tuple(found)


def errors_of(module: ModuleType) -> tuple[str, ...]:
    """A cause names the error it explains, or several (one cause, two symptoms)."""
    error = module.ERROR
    return tuple(error) if isinstance(error, tuple) else (error,)


def candidates(error: str, evidence: Any) -> list[Diagnosis]:
    """Every non-fallback cause that claims this evidence (exactly one, when all is well)."""
    out = []
    for module in causes():
        if error in errors_of(module) and not getattr(module, "FALLBACK", False):
            result = module.match(evidence)
            if result is not None:
                out.append(result)
    return out


def diagnose(failure: Failure) -> tuple[list[Diagnosis], str]:
    """Diagnoses for this failure, or an empty list and the reason none could be made."""
    gather = GATHERERS.get(failure.error)
    if gather is None:
        return [], f"no diagnosis exists yet for {failure.error}"
    evidence = gather(failure)
    if evidence is None:
        return [], ("the failing backward call was not recorded" if failure.record is None
                    and failure.error == "backward-twice" else "no cause could be placed")
    found = conclude(failure.error, evidence)
    if found:
        return found, ""
    return [], "no part of the failing graph was freed by a recorded backward call" \
        if failure.error == "backward-twice" else "no known cause fits what was seen"


def conclude(error: str, evidence: Any) -> list[Diagnosis]:
    """Ask every cause of this error; the fallback only when none claims the evidence."""
    found = candidates(error, evidence)
    if len(found) > 1:
        # Causes are meant to be exclusive; say so rather than pick silently.
        first = found[0]
        others = [d.finding.category for d in found[1:]]
        details = {**first.finding.details, "also_matched": others}
        found = [Diagnosis(replace(first.finding, details=details), first.remedy)]
    if found:
        return found[:1]
    for module in causes():
        if error in errors_of(module) and getattr(module, "FALLBACK", False):
            result = module.match(evidence)
            if result is not None:
                return [result]
    return []
