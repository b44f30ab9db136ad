"""Fixes verified before they are shown. Each finding's candidate fixes (its `fix`, then its
`alternatives`) are applied in a scratch copy of the user's files and the script is run
again, up to a few optimizer steps past where the first run failed (or to its end, or the
time budget). A candidate passes only when the script then runs with no autograd error and
no finding, nothing else fails, and every parameter that received a gradient in the first run
still receives one (for parameters that received none, the finding's own, they now must).

When a fix only uncovers the next problem (the fixed script fails elsewhere), that problem is
diagnosed in the same run and its fix is tried on top, so the fix shown is the one that
survives it; the newly found problem is reported as a finding of its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from autograd_doctor.edits.apply import FixError, apply_texts
from autograd_doctor.findings import Finding, Fix, Report
from autograd_doctor.verify import runs
from autograd_doctor.verify.replay import _outside
from autograd_doctor.verify.runs import ChildResult, Spec
from autograd_doctor.verify.scratch import Scratch, make

MAX_ROUNDS = 3  # problems uncovered one after the other
EXTRA_STEPS = 3  # optimizer steps past the first run's failure
AT_LEAST_STEPS = 12  # enough for the growth and gradient watches to decide


@dataclass(frozen=True)
class Baseline:
    """What the first run showed, for judging a fixed run."""

    received: dict[str, bool]  # parameter -> received a gradient in the steps watched
    steps: int  # optimizer steps it made


@dataclass
class Change:
    """The verified fixes as whole files: what to write with --fix."""

    before: dict[str, str] = field(default_factory=dict)
    after: dict[str, str] = field(default_factory=dict)


@dataclass
class _Problem:
    finding: Finding
    candidates: list[Fix]
    layer: int  # 0: found by the run; n: found after the fixes of layer n - 1
    choice: int = 0

    @property
    def fix(self) -> Fix | None:
        return self.candidates[self.choice] if self.choice < len(self.candidates) else None


def verify(report: Report, target: str, args: list[str], module: bool, baseline: Baseline,
           seconds: float) -> tuple[Report, Change | None]:
    """The report with each fix marked verified, failed or not tried (the first candidate
    that passed shown as the fix), and the verified change to write, if there is one."""
    problems = [_Problem(f, [c for c in (f.fix, *f.alternatives) if c is not None], 0)
                for f in report.findings]
    if not any(p.candidates for p in problems) or any(not p.candidates for p in problems):
        return report, None  # nothing to try, or a problem with no fix would remain
    scratch = make(target)
    try:
        return _verify(report, problems, scratch, Spec(target, tuple(args), module, False),
                       baseline, time.perf_counter() + seconds)
    finally:
        scratch.remove()


def _verify(report: Report, problems: list[_Problem], scratch: Scratch, spec: Spec,
            baseline: Baseline, deadline: float) -> tuple[Report, Change | None]:
    tried: dict[int, list[tuple[Fix, str]]] = {}  # id(problem) -> (candidate, outcome)
    stop = max(baseline.steps + EXTRA_STEPS, AT_LEAST_STEPS)
    while True:
        remaining = deadline - time.perf_counter()
        current = [p for p in problems if p.fix is not None]
        if remaining <= 0 or len(current) < len(problems):
            break
        try:
            before, after = _contents(scratch, problems)
        except (FixError, OSError) as exc:
            _give_up(problems, tried, f"the fixes do not apply together ({exc})")
            break
        _write(scratch, after)
        result = runs.run_child(scratch, replace(spec, stop_after_steps=stop, seconds=remaining))
        _write(scratch, before)
        verdict, fresh = _judge(result, problems, baseline, scratch)
        if verdict == "":
            ran = (f"ran the fixed script in a scratch copy "
                   f"({result.stopped or 'to its end'}): no error, no finding, no parameter "
                   f"lost its gradient")
            return _report(report, problems, tried, ran), Change(before, after)
        if fresh and max(p.layer for p in problems) < MAX_ROUNDS:
            layer = max(p.layer for p in problems) + 1
            problems += [_Problem(f, [c for c in (f.fix, *f.alternatives) if c is not None],
                                  layer) for f in fresh]
            continue
        blamed = _blame(problems, result)
        tried.setdefault(id(blamed), []).append((blamed.candidates[blamed.choice], verdict))
        blamed.choice += 1
        if blamed.fix is None:
            break
    return _report(report, problems, tried, ""), None


def _contents(scratch: Scratch, problems: list[_Problem]) -> tuple[dict[str, str],
                                                                   dict[str, str]]:
    """The edited files before and after the chosen fixes, layer by layer (a later layer's
    edits are in the coordinates its own run saw)."""
    chosen = [p for p in problems if p.fix is not None]
    files = {e.file for p in chosen for e in p.fix.edits}  # type: ignore[union-attr]
    before = {f: Path(scratch.inside_cwd(f)).read_text(encoding="utf-8") for f in files}
    after = dict(before)
    for layer in sorted({p.layer for p in chosen}):
        fixes = [p.fix for p in chosen if p.layer == layer and p.fix is not None]
        after.update(apply_texts(after, fixes))
    return before, after


def _write(scratch: Scratch, texts: dict[str, str]) -> None:
    for file, text in texts.items():
        Path(scratch.inside_cwd(file)).write_text(text, encoding="utf-8")


def _same(a: Finding, b: Finding) -> bool:
    ca = a.culprit.expression if a.culprit else ""
    cb = b.culprit.expression if b.culprit else ""
    return (a.error, a.category, ca) == (b.error, b.category, cb)


def _judge(result: ChildResult, problems: list[_Problem], baseline: Baseline,
           scratch: Scratch) -> tuple[str, list[Finding]]:
    """("", []) when the fixed run passes; else why not, and the problems it newly found."""
    if result.report is None:
        return f"the fixed script could not be run ({result.problem})", []
    if result.error:
        return f"the fixed script fails: {result.error}", []
    report = _outside(result.report, scratch)
    lost = [n for n, got in baseline.received.items()
            if got and result.gradients.get(n) is False]
    if lost:  # the fix itself cut a parameter off: whatever else happened, it is wrong
        return f"{lost[0]} no longer receives a gradient", []
    if report.findings:
        fresh = [f for f in report.findings if not any(_same(f, p.finding) for p in problems)]
        still = [f for f in report.findings if f not in fresh]
        if still:
            return f"the fixed script still shows {still[0].error} ({still[0].category})", []
        why = f"the fixed script then shows {fresh[0].error} ({fresh[0].category})"
        return why, [f for f in fresh if f.fix is not None] if all(f.fix for f in fresh) else []
    if report.status == "undiagnosed" or result.exit_code not in (0,):
        return f"the fixed script ends with exit code {result.exit_code}", []
    starved = [n for p in problems if p.finding.error == "silent-no-grad"
               for n in p.finding.details.get("parameters", []) or []
               if result.gradients.get(str(n)) is False]
    if starved:
        return f"{starved[0]} still receives no gradient", []
    return "", []


def _blame(problems: list[_Problem], result: ChildResult) -> _Problem:
    """The problem whose candidate to give up: the one the fixed run still shows, else the
    latest one tried that still has alternatives."""
    shown = result.report.findings if result.report is not None else ()
    for p in problems:
        if any(_same(f, p.finding) for f in shown) and p.fix is not None:
            return p
    open_ = [p for p in problems if p.choice + 1 < len(p.candidates)]
    return open_[-1] if open_ else problems[-1]


def _give_up(problems: list[_Problem], tried: dict[int, list[tuple[Fix, str]]],
             why: str) -> None:
    for p in problems:
        if p.fix is not None:
            tried.setdefault(id(p), []).append((p.fix, why))
            p.choice = len(p.candidates)


def _report(report: Report, problems: list[_Problem],
            tried: dict[int, list[tuple[Fix, str]]], passed: str) -> Report:
    """Each finding with its fix and alternatives marked; findings uncovered on the way
    added after the ones they followed."""
    findings = []
    for p in problems:
        failed = {id(f): why for f, why in tried.get(id(p), [])}
        marked = []
        for i, candidate in enumerate(p.candidates):
            if i == p.choice and passed:
                marked.append(replace(candidate, status="verified", verification=passed))
            elif id(candidate) in failed:
                marked.append(replace(candidate, status="failed",
                                      verification=failed[id(candidate)]))
            else:
                marked.append(replace(candidate, status="not tried", verification=""))
        best = next((m for m in marked if m.status == "verified"), marked[0] if marked else None)
        others = tuple(m for m in marked if m is not best)
        finding = replace(p.finding, fix=best, alternatives=others)
        if p.layer and passed:
            finding = replace(finding, details={**finding.details, "after_fixing": [
                q.finding.category for q in problems if q.layer < p.layer]})
        if p.layer == 0 or passed:
            findings.append(finding)
    return replace(report, findings=tuple(findings))
