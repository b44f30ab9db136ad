"""Report -> a few plain lines for a terminal: what, where, why, and the fix as a diff.
Reads the report's fields only: no category or error id is special here."""

from __future__ import annotations

import textwrap

from autograd_doctor.findings import Finding, Location, Report

WIDTH = 92
ROLE_WORDS = {"assigned": "assigned at", "written": "written at"}  # others: "at"


def render_terminal(report: Report) -> str:
    out: list[str] = []
    for finding in report.findings:
        out.extend(render_finding(finding))
        out.append("")
    fixes = [f.fix for f in report.findings if f.fix is not None]
    if report.command == "run" and report.target and fixes:
        if all(fix.status == "verified" for fix in fixes):
            out.append(f"  apply the verified fix: autograd-doctor run --fix {report.target}")
            out.append("")
        elif all(fix.status == "not tried" for fix in fixes):
            out.append(f"  verify and apply the fix: autograd-doctor run --fix "
                       f"{report.target}")
            out.append("")
    for note in report.notes:
        out.extend(_wrap(f"note: {note}", "autograd-doctor: "))
    for problem in report.problems:
        out.extend(_wrap(f"autograd-doctor itself failed here (your program was not affected; "
                         f"please report it): {problem}", "autograd-doctor: "))
    if report.status == "undiagnosed":
        out.append(f"autograd-doctor: could not place this error: {report.reason}")
    elif report.status == "error":
        out.append(f"autograd-doctor: error: {report.reason}")
    elif report.status == "clean" and report.command in ("run", "lint", "show"):
        out.append("autograd-doctor: no problems found")
    return "\n".join(out).rstrip("\n") + "\n"


def render_finding(finding: Finding) -> list[str]:
    title = finding.title or finding.error
    lines = [f"autograd-doctor: {title} [{finding.error}: {finding.category}]", ""]
    if finding.culprit:
        c = finding.culprit
        verb = ROLE_WORDS.get(c.role, "at")
        where = f", {verb} {c.file}:{c.line}" if c.file and c.line else ""
        lines.append(f"  culprit    {c.expression} ({c.kind}){where}")
        if c.code:
            lines.append(f"               {c.code}")
    if finding.freeing_backward:
        lines.append(_place("  freed by  ", finding.freeing_backward))
    if finding.failing_backward:
        lines.append(_place("  failed at ", finding.failing_backward))
    culprit_at = (finding.culprit.file, finding.culprit.line) if finding.culprit else None
    for key, value in finding.details.items():
        # A detail shaped like a place is one (the writer, the cut), unless it is the
        # culprit's own line, already shown.
        if isinstance(value, dict) and "file" in value and "line" in value \
                and (value["file"], value["line"]) != culprit_at:
            lines.append(_place(f"  {key:<10}", Location.from_dict(value)))
    lines.append("")
    lines.extend(_wrap(finding.message, "  "))
    if finding.fix:
        fix = finding.fix
        lines.append("")
        status = {"verified": ", verified", "failed": ", NOT verified"}.get(fix.status, "")
        lines.append(f"  fix ({fix.strategy}{status}): {fix.description}")
        if fix.status == "failed" and fix.verification:
            lines.extend(_wrap(f"({fix.verification})", "  "))
        lines.extend("    " + line for line in fix.diff.rstrip("\n").splitlines())
    return lines


def _place(label: str, loc: Location) -> str:
    code = f"   {loc.code}" if loc.code else ""
    return f"{label} {loc.file}:{loc.line}{code}"


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False)
