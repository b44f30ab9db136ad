"""Facts -> Findings: the family registry and cause selection.

Each subpackage is one family of errors (`ls` is the taxonomy). Its `__init__` declares,
without importing torch, the error id (ERROR), what happened in words (TITLE) and, for errors
PyTorch raises, the part of PyTorch's message it owns (PATTERN). Its `evidence.py` gathers the
facts once (`gather`), and every other module is one cause: a user-facing docstring, CATEGORY,
BROKEN/FIXED examples and `match(evidence) -> Claim | None`. Optional: OUTRANKS (categories of
the same family this cause wins over when both claim the evidence) and FALLBACK (claims only
when nothing else does). CLI tables, JSON ids, titles and test lists all derive from here.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

from autograd_doctor.diagnosis.finding import Claim, Diagnosis, build


@dataclass(frozen=True)
class Family:
    error: str
    title: str
    pattern: str | None  # the part of PyTorch's message this family owns; None: no error
    outside_backward: bool  # raised by reading a saved tensor, not by a backward call
    package: str  # the module path of the family's package
    doc: str


@functools.cache
def families() -> tuple[Family, ...]:
    """Every family, in the order of the package listing. Imports no torch."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.append(Family(module.ERROR, module.TITLE, getattr(module, "PATTERN", None),
                            getattr(module, "OUTSIDE_BACKWARD", False), module.__name__,
                            (module.__doc__ or "").strip()))
    return tuple(found)


def family(error: str) -> Family:
    return next(f for f in families() if f.error == error)


def classify(exc: BaseException, in_backward: bool) -> str | None:
    """The family that owns this exception, if any (a RuntimeError with its message)."""
    if not isinstance(exc, RuntimeError):
        return None
    text = str(exc)
    for f in families():
        if f.pattern is not None and f.pattern in text and f.outside_backward != in_backward:
            return f.error
    return None


@functools.cache
def causes(error: str | None = None) -> tuple[ModuleType, ...]:
    """The cause modules of one family (of every family when `error` is None)."""
    out: list[ModuleType] = []
    for f in families():
        if error is not None and f.error != error:
            continue
        package = importlib.import_module(f.package)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if info.name != "evidence":
                out.append(importlib.import_module(f"{f.package}.{info.name}"))
    return tuple(out)


def family_of(cause: ModuleType) -> Family:
    return next(f for f in families() if cause.__name__.startswith(f.package + "."))


def categories(error: str | None = None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.CATEGORY for m in causes(error)))


def gather(error: str, observed: Any) -> Any:
    """The family's evidence for what capture observed (a failure, a watch's finding)."""
    evidence = importlib.import_module(f"{family(error).package}.evidence")
    return evidence.gather(observed)


@dataclass(frozen=True)
class Selection:
    """Which causes claimed the evidence, and the diagnosis chosen from them."""

    error: str
    claims: tuple[str, ...]  # every category that claimed it (fallbacks aside)
    chosen: Diagnosis | None
    overlaps: tuple[tuple[str, str], ...] = ()  # pairs that both claimed it, with no order


def diagnose(error: str, evidence: Any) -> list[Selection]:
    """Select a cause for the evidence, or for each piece of it when the family's evidence
    comes in pieces (one per culprit); pieces of one cause become one diagnosis whose fix
    covers every site."""
    pieces = evidence if isinstance(evidence, list) else [evidence]
    selections = [select(error, piece) for piece in pieces]
    merged: dict[str, Selection] = {}
    for selection in selections:
        chosen = selection.chosen
        if chosen is None:
            continue
        key = chosen.finding.category
        if key in merged and merged[key].chosen is not None:
            merged[key] = replace(merged[key], chosen=_merge(merged[key].chosen, chosen),
                                  overlaps=merged[key].overlaps + selection.overlaps)
        else:
            merged[key] = selection
    return list(merged.values()) or selections[:1]


def _merge(first: Diagnosis | None, other: Diagnosis) -> Diagnosis:
    """One root cause seen at two sites: one finding, one fix with the edits of both."""
    assert first is not None
    culprit = other.finding.culprit
    also = list(first.finding.details.get("also", []) or [])
    if culprit is not None and culprit.expression not in also and (
            first.finding.culprit is None
            or culprit.expression != first.finding.culprit.expression):
        also.append(culprit.expression)
    finding = replace(first.finding, details={**first.finding.details, "also": also})
    if not first.remedies or not other.remedies:
        return Diagnosis(finding, first.remedies or other.remedies)
    a, b = first.remedies[0], other.remedies[0]
    # Two culprits of one site (a layer's weight and bias) bring the same edit twice.
    added = tuple(op for op in b.operations if op not in a.operations)
    if not added:
        return Diagnosis(finding, first.remedies)
    description = a.description if b.description == a.description \
        else f"{a.description}; {b.description}"
    both = replace(a, description=description, operations=a.operations + added)
    return Diagnosis(finding, (both,))


def outranks(winner: ModuleType, loser: ModuleType) -> bool:
    return loser.CATEGORY in getattr(winner, "OUTRANKS", ())


def select(error: str, evidence: Any) -> Selection:
    """Ask every cause of the family. A claim that another claimant outranks drops out; if
    several remain, no order was declared between them: that is reported as an overlap (a
    test fails on it) and the first in the listing is taken."""
    fam = family(error)
    claims: list[tuple[ModuleType, Claim]] = []
    for module in causes(error):
        if getattr(module, "FALLBACK", False):
            continue
        claim = module.match(evidence)
        if claim is not None:
            claims.append((module, claim))
    winners = [(m, c) for m, c in claims
               if not any(outranks(other, m) for other, _ in claims if other is not m)]
    overlaps = tuple((a.CATEGORY, b.CATEGORY) for i, (a, _) in enumerate(winners)
                     for b, _ in winners[i + 1:])
    if winners:
        return Selection(error, tuple(m.CATEGORY for m, _ in claims),
                         build(fam.error, fam.title, winners[0][1]), overlaps)
    for module in causes(error):
        if getattr(module, "FALLBACK", False):
            claim = module.match(evidence)
            if claim is not None:
                return Selection(error, (), build(fam.error, fam.title, claim))
    return Selection(error, (), None)
