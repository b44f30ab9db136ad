"""The pipeline: start capture, and turn what it observes (a failure, a watch due for a
decision) into diagnosed, fixed and rendered Findings. The in-process API and every shell in
integrations/ go through here. Every stage runs behind the Doctor's Boundary.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from autograd_doctor import AutogradDoctorWarning, runner
from autograd_doctor.boundary import Boundary
from autograd_doctor.capture.frames import is_user_file, live_scopes
from autograd_doctor.capture.gradients import GradientWatch, Observation, Watched
from autograd_doctor.capture.growth import GrowthWatch
from autograd_doctor.capture.hooks import SEEN_ATTRIBUTE, Capture, Failure, active
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.capture.tracer import Trace, Tracer
from autograd_doctor.diagnosis import Selection, classify, diagnose, gather, select
from autograd_doctor.diagnosis.finding import Diagnosis
from autograd_doctor.diagnosis.saved_tensor_access.evidence import read_in_backward
from autograd_doctor.edits.apply import build
from autograd_doctor.findings import Finding, Fix, OriginalError, Report
from autograd_doctor.render.to_terminal import render_finding

NOTE_PREFIX = "autograd-doctor"
# Set on an exception the doctor diagnosed: (findings, reason). The exception object holds
# its own outcome, so nothing is keyed by id() and nothing keeps the exception alive.
OUTCOME_ATTRIBUTE = "_autograd_doctor_outcome"
UNKNOWN_ERROR = "an error raised inside a backward call that autograd-doctor does not know yet"

Announce = Callable[[Finding], None]


def warn(finding: Finding) -> None:
    warnings.warn("\n".join(render_finding(finding)), AutogradDoctorWarning, stacklevel=2)


@dataclass(frozen=True)
class Outcome:
    """What the doctor made of one exception."""

    findings: tuple[Finding, ...]
    reason: str  # why no finding could be made, when there is none


class Doctor:
    def __init__(self, notes: bool = True, announce: Announce | None = warn,
                 trace: bool = False) -> None:
        self.notes = notes  # attach the diagnosis to the user's exception
        self.announce = announce  # tell about silent findings as soon as they are made
        self.tracer = Tracer() if trace else None  # a replay: every torch call watched
        self.boundary = Boundary()
        self.capture = Capture(on_failure=self._on_failure, on_backward=self._after_backward,
                               on_step=self._before_step, boundary=self.boundary)
        self.findings: list[Finding] = []
        self.remarks: list[str] = []  # notes that are not alarms
        self.selections: list[Selection] = []  # which causes claimed what (tests read it)
        self.gradients = GradientWatch()
        self.growth = GrowthWatch()
        self._failed = False

    @property
    def problems(self) -> list[str]:
        return self.boundary.problems

    def install(self) -> Doctor:
        self.capture.install()
        if self.tracer is not None:
            self.tracer.start()
        return self

    def uninstall(self) -> None:
        if self.tracer is not None:
            self.tracer.stop()
        if self.capture is active():
            self.boundary.guard("end of run", self.finish)
        self.capture.uninstall()

    @property
    def trace(self) -> Trace | None:
        return self.tracer.trace if self.tracer is not None else None

    def finish(self) -> None:
        """Decide on what was watched but not yet decided (a run shorter than the window).
        After an error the steps seen say little about the training that never ran."""
        if self._failed:
            return
        for watched in self.gradients.pending():
            self._decide_gradients(watched, [])
        for watched in self.gradients.still_frozen():
            self._decide_gradients(watched, [])

    def __enter__(self) -> Doctor:
        return self.install()

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if exc is not None:
            self.examine(exc)
        self.uninstall()

    # -- silent problems ---------------------------------------------------------------

    def _after_backward(self, capture: Capture, record: BackwardRecord, tensors: Any) -> None:
        growth = self.growth.after_backward(capture.ledger, record, tensors)
        if growth is not None:
            growth.trace = self.trace
            self._silent("graph-growth", gather("graph-growth", growth))

    def _before_step(self, capture: Capture, optimizer: Any) -> None:
        watched = self.gradients.before_step(optimizer)
        if watched is not None:
            self._decide_gradients(watched, live_scopes())

    def _decide_gradients(self, watched: Watched, scopes: list[dict[str, Any]]) -> None:
        records, _ = self.capture.ledger.snapshot()
        evidence = gather("silent-no-grad", Observation(watched, records, scopes, self.trace,
                                                        self.gradients.held()))
        if evidence is not None:
            self._silent("silent-no-grad", evidence)

    def _silent(self, error: str, evidence: Any) -> None:
        selection = select(error, evidence)
        self.selections.append(selection)
        if selection.chosen is None or any(
                _same_place(selection.chosen.finding, f) or _covered(selection.chosen.finding, f)
                for f in self.findings):
            return  # one problem seen under two names, or at a site fixed with it, is one
        finding = self._with_fix(selection.chosen)
        # When it was seen, in optimizer steps of the whole program (a teacher trained
        # first counts): how far a replay has to run to see it again.
        finding = replace(finding, details={**finding.details,
                                            "optimizer_steps": self.capture.ledger.steps})
        self.findings.append(finding)
        if self.announce is not None:
            announce = self.announce
            self.boundary.guard("announcing a finding", lambda: announce(finding))

    # -- failures ----------------------------------------------------------------------

    def examine(self, exc: BaseException) -> None:
        """An autograd error that reached the top without passing through a backward call:
        a saved tensor read after its graph was freed."""
        if getattr(exc, SEEN_ATTRIBUTE, False) or classify(exc, in_backward=False) is None:
            return
        frames = []
        tb = exc.__traceback__
        while tb is not None:
            if is_user_file(tb.tb_frame.f_code.co_filename):
                frames.append(tb.tb_frame)
            tb = tb.tb_next
        frames.reverse()  # innermost first, as everywhere else
        records, steps = self.capture.ledger.snapshot()
        failure = Failure(exc, None, frames, records, steps, threading.get_ident())
        try:
            self.boundary.guard("handling the failure", lambda: self._on_failure(failure))
        finally:
            frames.clear()

    def _on_failure(self, failure: Failure) -> None:
        error = classify(failure.exception, in_backward=failure.record is not None
                         and not read_in_backward(failure))
        if error is None:
            if failure.record is not None:
                # Raised inside a backward call but not one of the errors we know: the
                # report says so ("undiagnosed"), never "clean".
                setattr(failure.exception, OUTCOME_ATTRIBUTE, Outcome((), UNKNOWN_ERROR))
            return
        self._failed = True
        failure.trace = self.trace
        result, problem = self.boundary.attempt("diagnosis", lambda: self._diagnose(
            error, failure))
        outcome = result or Outcome((), f"internal error in the diagnosis ({problem})")
        # A graph seen growing through the very value the error names was the same mistake
        # on its way to the error: one finding, one fix (two fixes of one value compound).
        named = {_where(f) for f in outcome.findings if f.culprit is not None}
        self.findings = [f for f in self.findings
                         if not (f.error == "graph-growth" and _where(f) in named)]
        self.findings.extend(outcome.findings)
        setattr(failure.exception, OUTCOME_ATTRIBUTE, outcome)
        if self.notes:
            exc = failure.exception
            self.boundary.guard("attaching notes", lambda: _attach(exc, outcome))

    def _diagnose(self, error: str, failure: Failure) -> Outcome:
        evidence = gather(error, failure)
        if evidence is None:
            return Outcome((), "the failing backward call was not recorded"
                           if failure.record is None and error == "backward-twice"
                           else "no cause could be placed")
        selections = diagnose(error, evidence)
        self.selections.extend(selections)
        chosen = [s.chosen for s in selections if s.chosen is not None]
        if not chosen:
            return Outcome((), "no part of the failing graph was freed by a recorded backward "
                               "call" if error == "backward-twice"
                           else "no known cause fits what was seen")
        return Outcome(tuple(self._with_fix(d) for d in chosen), "")

    def _with_fix(self, diagnosis: Diagnosis) -> Finding:
        fixes: list[Fix] = []
        for remedy in diagnosis.remedies:
            fix = self.boundary.guard("building the fix", functools.partial(build, remedy))
            # An edit that changes nothing is no fix.
            if fix is not None and fix.diff and all(f.diff != fix.diff for f in fixes):
                fixes.append(fix)
        if not fixes:
            return diagnosis.finding
        return replace(diagnosis.finding, fix=fixes[0], alternatives=tuple(fixes[1:]))

    def report(self, command: str, exit_code: int, target: str = "",
               error: BaseException | None = None, traceback: str = "") -> Report:
        reason = ""
        seen = outcome_of(error) if error is not None else None
        if seen is not None and not seen.findings:
            reason = seen.reason
        if self.findings:
            status = "diagnosed"
        elif reason:
            status = "undiagnosed"
        else:
            status = "clean"
        original = None
        if error is not None:
            original = OriginalError(type(error).__name__, _message(error), traceback)
        return Report(command, status, exit_code, tuple(self.findings), tuple(self.remarks),
                      reason, original, target, tuple(self.problems))


def _where(finding: Finding) -> tuple[str | None, int | None, str] | None:
    c = finding.culprit
    return (c.file, c.line, c.expression) if c is not None else None


def _same_place(a: Finding, b: Finding) -> bool:
    return (a.error, a.category) == (b.error, b.category) and _where(a) is not None \
        and _where(a) == _where(b)


def _covered(new: Finding, old: Finding) -> bool:
    """Is `new`'s culprit line edited by one of `old`'s fixes for the same cause (a meter's
    second running total, detached together with the first)?"""
    c = new.culprit
    if c is None or c.file is None or c.line is None or \
            (new.error, new.category) != (old.error, old.category):
        return False
    where = os.path.abspath(c.file)
    return any(os.path.abspath(e.file) == where and e.start <= c.line <= e.end
               for fix in (old.fix, *old.alternatives) if fix is not None for e in fix.edits)


def outcome_of(exc: BaseException) -> Outcome | None:
    """What the doctor made of this exception, if it saw it."""
    found = getattr(exc, OUTCOME_ATTRIBUTE, None)
    return found if isinstance(found, Outcome) else None


def run(target: str, args: list[str], module: bool = False,
        command: str = "run") -> tuple[Report, runner.Outcome]:
    """Run a script (or module) as python would, under a Doctor; the report and outcome."""
    report, outcome, _ = run_with_doctor(target, args, module, command)
    return report, outcome


def run_with_doctor(target: str, args: list[str], module: bool = False, command: str = "run",
                    trace: bool = False, quiet: bool = False
                    ) -> tuple[Report, runner.Outcome, Doctor]:
    """`quiet`: no line while the script runs (a replay or a verification run)."""
    doctor = Doctor(notes=False, announce=None if quiet else _one_line, trace=trace).install()
    try:
        outcome = runner.run(target, args, module)
    finally:
        doctor.uninstall()
    error = outcome.error
    if error is not None:
        doctor.examine(error)
    exit_code = outcome.exit_code
    if exit_code == 0 and doctor.findings:
        exit_code = 1
    # The report keeps the user's frames only: torch's and ours change between versions.
    short = runner.format_error(error, limit_to_user=True) if error is not None else ""
    report = doctor.report(command, exit_code, target, error, short)
    if error is not None and outcome_of(error) is None:
        report = replace(report, original_error=None)  # not an autograd error: not ours
    return report, outcome, doctor


def _one_line(finding: Finding) -> None:
    """While a script runs: a line now, the full report when it ends."""
    culprit = f" `{finding.culprit.expression}`" if finding.culprit else ""
    sys.stderr.write(f"autograd-doctor: {finding.error} ({finding.category}){culprit}: the "
                     f"script goes on; full report when it ends\n")


def _attach(exc: BaseException, outcome: Outcome) -> None:
    for note in notes_for(outcome):
        add_note(exc, note)


def notes_for(outcome: Outcome) -> list[str]:
    if not outcome.findings:
        return [f"{NOTE_PREFIX}: could not place this error: {outcome.reason}"]
    return ["\n".join(render_finding(f)) for f in outcome.findings]


def add_note(exc: BaseException, note: str) -> None:
    # BaseException.add_note is Python 3.11+; on 3.10 the list is kept but not printed.
    notes = getattr(exc, "__notes__", None)
    if notes is None:
        notes = []
        exc.__notes__ = notes
    notes.append(note)


def _message(error: BaseException) -> str:
    return str(error.args[0]) if error.args else str(error)
