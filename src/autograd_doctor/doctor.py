"""The pipeline: start capture, and turn each captured failure into a diagnosed, fixed and
rendered Finding. The in-process API and every shell in integrations/ go through here.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from autograd_doctor import AutogradDoctorWarning, runner
from autograd_doctor.capture.frames import is_user_file
from autograd_doctor.capture.hooks import Capture, Failure, active, classify
from autograd_doctor.capture.ledger import BackwardRecord
from autograd_doctor.diagnosis import conclude, diagnose
from autograd_doctor.diagnosis.gradients import GradientWatch, Watched, live_scopes
from autograd_doctor.diagnosis.gradients import evidence as gradient_evidence
from autograd_doctor.diagnosis.growth import GrowthWatch
from autograd_doctor.diagnosis.remedy import Diagnosis
from autograd_doctor.findings import Finding, OriginalError, Report
from autograd_doctor.fixes import FixError, build
from autograd_doctor.render.to_terminal import render_finding

NOTE_PREFIX = "autograd-doctor"


Announce = Callable[[Finding], None]


def warn(finding: Finding) -> None:
    warnings.warn("\n".join(render_finding(finding)), AutogradDoctorWarning, stacklevel=2)


class Doctor:
    def __init__(self, notes: bool = True, announce: Announce | None = warn) -> None:
        self.notes = notes  # attach the diagnosis to the user's exception
        self.announce = announce  # tell about silent findings as soon as they are made
        self.capture = Capture(on_failure=self._on_failure, on_backward=self._after_backward,
                               on_step=self._before_step)
        self.findings: list[Finding] = []
        self.remarks: list[str] = []  # notes that are not alarms
        self.gradients = GradientWatch()
        self.growth = GrowthWatch()
        self._by_exception: dict[int, tuple[list[Finding], str]] = {}

    def install(self) -> Doctor:
        self.capture.install()
        return self

    def uninstall(self) -> None:
        if self.capture is active():
            self.finish()
        self.capture.uninstall()

    def finish(self) -> None:
        """Decide on what was watched but not yet decided (a run shorter than the window).
        After an error the steps seen say little about the training that never ran."""
        if self._by_exception:
            return
        for watched in self.gradients.pending():
            self._decide_gradients(watched, [])

    # -- silent problems ---------------------------------------------------------------

    def _after_backward(self, capture: Capture, record: BackwardRecord, tensors: Any) -> None:
        growth = self.growth.after_backward(capture.ledger, record, tensors)
        if growth is not None:
            self._silent("graph-growth", growth)

    def _before_step(self, capture: Capture, optimizer: Any) -> None:
        watched = self.gradients.before_step(optimizer)
        if watched is not None:
            self._decide_gradients(watched, live_scopes())

    def _decide_gradients(self, watched: Watched, scopes: list[dict[str, Any]]) -> None:
        records, _ = self.capture.ledger.snapshot()
        evidence = gradient_evidence(watched, records, scopes)
        if evidence is None:
            return
        if not evidence.alarm:
            self.remarks.append(
                f"{len(evidence.missing)} of {evidence.total} parameters handed to an optimizer "
                f"received no gradient in the first {evidence.steps} steps: "
                f"{', '.join(evidence.missing[:6])}{' ...' if len(evidence.missing) > 6 else ''}"
                f" (a conditional branch or an unused layer?)")
            return
        self._silent("silent-no-grad", evidence)

    def _silent(self, error: str, evidence: Any) -> None:
        for diagnosis in conclude(error, evidence):
            finding = with_fix(diagnosis)
            self.findings.append(finding)
            if self.announce is not None:
                self.announce(finding)

    def __enter__(self) -> Doctor:
        return self.install()

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if exc is not None:
            self.examine(exc)
        self.uninstall()

    def examine(self, exc: BaseException) -> None:
        """An autograd error that reached the top without passing through a backward call:
        a saved tensor read after its graph was freed."""
        if self.outcome(exc) is not None or classify(exc) != "backward-twice":
            return
        frames = []
        tb = exc.__traceback__
        while tb is not None:
            if is_user_file(tb.tb_frame.f_code.co_filename):
                frames.append(tb.tb_frame)
            tb = tb.tb_next
        frames.reverse()  # innermost first, as everywhere else
        records, steps = self.capture.ledger.snapshot()
        failure = Failure("saved-tensor-access", exc, None, frames, records, steps, self.capture)
        try:
            self._on_failure(failure)
        finally:
            frames.clear()

    # -- failures ----------------------------------------------------------------------

    def _on_failure(self, failure: Failure) -> None:
        try:
            diagnoses, reason = diagnose(failure)
            findings = [with_fix(d) for d in diagnoses]
        except Exception as exc:  # noqa: BLE001 - the boundary with the user's program
            findings, reason = [], f"internal error in the diagnosis ({type(exc).__name__}: {exc})"
        self.findings.extend(findings)
        self._by_exception[id(failure.exception)] = (findings, reason)
        if self.notes:
            for note in notes_for(findings, reason):
                add_note(failure.exception, note)

    def outcome(self, exc: BaseException) -> tuple[list[Finding], str] | None:
        """What was found for this exception, if the doctor saw it."""
        return self._by_exception.get(id(exc))

    def report(self, command: str, exit_code: int, target: str = "",
               error: BaseException | None = None, traceback: str = "") -> Report:
        reason = ""
        if error is not None:
            seen = self.outcome(error)
            if seen is not None and not seen[0]:
                reason = seen[1]
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
                      reason, original, target)


def run(target: str, args: list[str], module: bool = False,
        command: str = "run") -> tuple[Report, runner.Outcome]:
    """Run a script (or module) as python would, under a Doctor; the report and outcome."""
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
    if error is not None and doctor.outcome(error) is None:
        report = replace(report, original_error=None)  # not an autograd error: not ours
    return report, outcome


def _one_line(finding: Finding) -> None:
    """While a script runs: a line now, the full report when it ends."""
    culprit = f" `{finding.culprit.expression}`" if finding.culprit else ""
    sys.stderr.write(f"autograd-doctor: {finding.error} ({finding.category}){culprit}: the "
                     f"script goes on; full report when it ends\n")


def with_fix(diagnosis: Diagnosis) -> Finding:
    if diagnosis.remedy is None:
        return diagnosis.finding
    try:
        fix = build(diagnosis.remedy)
    except (FixError, OSError, IndexError, UnicodeError):
        return diagnosis.finding
    return replace(diagnosis.finding, fix=fix)


def notes_for(findings: list[Finding], reason: str) -> list[str]:
    if not findings:
        return [f"{NOTE_PREFIX}: could not place this error: {reason}"]
    return ["\n".join(render_finding(f)) for f in findings]


def add_note(exc: BaseException, note: str) -> None:
    # BaseException.add_note is Python 3.11+; on 3.10 the list is kept but not printed.
    notes = getattr(exc, "__notes__", None)
    if notes is None:
        notes = []
        exc.__notes__ = notes
    notes.append(note)


def _message(error: BaseException) -> str:
    return str(error.args[0]) if error.args else str(error)
