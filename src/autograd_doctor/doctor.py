"""The pipeline: start capture, and turn what it observes (a failure, a watch due for a
decision) into diagnosed, fixed and rendered Findings. The in-process API and every shell in
integrations/ go through here. Every stage runs behind the Doctor's Boundary.
"""

from __future__ import annotations

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
from autograd_doctor.diagnosis import Selection, classify, gather, select
from autograd_doctor.diagnosis.finding import Diagnosis
from autograd_doctor.edits.apply import build
from autograd_doctor.findings import Finding, OriginalError, Report
from autograd_doctor.render.to_terminal import render_finding

NOTE_PREFIX = "autograd-doctor"
# Set on an exception the doctor diagnosed: (findings, reason). The exception object holds
# its own outcome, so nothing is keyed by id() and nothing keeps the exception alive.
OUTCOME_ATTRIBUTE = "_autograd_doctor_outcome"

Announce = Callable[[Finding], None]


def warn(finding: Finding) -> None:
    warnings.warn("\n".join(render_finding(finding)), AutogradDoctorWarning, stacklevel=2)


@dataclass(frozen=True)
class Outcome:
    """What the doctor made of one exception."""

    findings: tuple[Finding, ...]
    reason: str  # why no finding could be made, when there is none


class Doctor:
    def __init__(self, notes: bool = True, announce: Announce | None = warn) -> None:
        self.notes = notes  # attach the diagnosis to the user's exception
        self.announce = announce  # tell about silent findings as soon as they are made
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
        return self

    def uninstall(self) -> None:
        if self.capture is active():
            self.boundary.guard("end of run", self.finish)
        self.capture.uninstall()

    def finish(self) -> None:
        """Decide on what was watched but not yet decided (a run shorter than the window).
        After an error the steps seen say little about the training that never ran."""
        if self._failed:
            return
        for watched in self.gradients.pending():
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
            self._silent("graph-growth", gather("graph-growth", growth))

    def _before_step(self, capture: Capture, optimizer: Any) -> None:
        watched = self.gradients.before_step(optimizer)
        if watched is not None:
            self._decide_gradients(watched, live_scopes())

    def _decide_gradients(self, watched: Watched, scopes: list[dict[str, Any]]) -> None:
        records, _ = self.capture.ledger.snapshot()
        evidence = gather("silent-no-grad", Observation(watched, records, scopes))
        if evidence is None:
            return
        if not evidence.alarm:
            missing = evidence.missing
            self.remarks.append(
                f"{len(missing)} of {evidence.total} parameters handed to an optimizer "
                f"received no gradient in the first {evidence.steps} steps: "
                f"{', '.join(missing[:6])}{' ...' if len(missing) > 6 else ''}"
                f" (a conditional branch or an unused layer?)")
            return
        self._silent("silent-no-grad", evidence)

    def _silent(self, error: str, evidence: Any) -> None:
        selection = select(error, evidence)
        self.selections.append(selection)
        if selection.chosen is None:
            return
        finding = self._with_fix(selection.chosen)
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
        error = classify(failure.exception, in_backward=failure.record is not None)
        if error is None:
            return  # an error autograd-doctor has nothing to say about
        self._failed = True
        result, problem = self.boundary.attempt("diagnosis", lambda: self._diagnose(
            error, failure))
        outcome = result or Outcome((), f"internal error in the diagnosis ({problem})")
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
        selection = select(error, evidence)
        self.selections.append(selection)
        if selection.chosen is None:
            return Outcome((), "no part of the failing graph was freed by a recorded backward "
                               "call" if error == "backward-twice"
                           else "no known cause fits what was seen")
        return Outcome((self._with_fix(selection.chosen),), "")

    def _with_fix(self, diagnosis: Diagnosis) -> Finding:
        remedy = diagnosis.remedy
        if remedy is None:
            return diagnosis.finding
        fix = self.boundary.guard("building the fix", lambda: build(remedy))
        return replace(diagnosis.finding, fix=fix) if fix is not None else diagnosis.finding

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


def outcome_of(exc: BaseException) -> Outcome | None:
    """What the doctor made of this exception, if it saw it."""
    found = getattr(exc, OUTCOME_ATTRIBUTE, None)
    return found if isinstance(found, Outcome) else None


def run(target: str, args: list[str], module: bool = False,
        command: str = "run") -> tuple[Report, runner.Outcome]:
    """Run a script (or module) as python would, under a Doctor; the report and outcome."""
    report, outcome, _ = run_with_doctor(target, args, module, command)
    return report, outcome


def run_with_doctor(target: str, args: list[str], module: bool = False, command: str = "run"
                    ) -> tuple[Report, runner.Outcome, Doctor]:
    doctor = Doctor(notes=False, announce=_one_line).install()
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
