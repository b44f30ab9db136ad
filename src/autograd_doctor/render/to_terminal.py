"""Report -> a few plain lines for a terminal: what, where, why, and the fix as a diff."""

from __future__ import annotations

import textwrap

from autograd_doctor.findings import Finding, Location, Report

WIDTH = 92
TITLES = {
    "backward-twice": "backward through a graph that was already freed",
    "saved-tensor-access": "saved tensors read after their graph was freed",
    "inplace-modified": "a tensor saved for backward was modified in place",
    "no-grad-fn": "the loss has no graph: the model was cut off before it",
    "silent-no-grad": "parameters that never receive a gradient",
    "graph-growth": "the graph grows with every step",
    "lint": "lint",
}


def render_terminal(report: Report) -> str:
    out: list[str] = []
    for finding in report.findings:
        out.extend(render_finding(finding))
        out.append("")
    if report.command == "run" and report.target and any(f.fix for f in report.findings):
        out.append(f"  apply and verify the fix: autograd-doctor run --fix {report.target}")
        out.append("")
    for note in report.notes:
        out.extend(_wrap(f"note: {note}", "autograd-doctor: "))
    if report.status == "undiagnosed":
        out.append(f"autograd-doctor: could not place this error: {report.reason}")
    elif report.status == "error":
        out.append(f"autograd-doctor: error: {report.reason}")
    elif report.status == "clean" and report.command in ("run", "lint", "show"):
        out.append("autograd-doctor: no problems found")
    return "\n".join(out).rstrip("\n") + "\n"


def render_finding(finding: Finding) -> list[str]:
    title = TITLES.get(finding.error, finding.error)
    lines = [f"autograd-doctor: {title} [{finding.error}: {finding.category}]", ""]
    if finding.culprit:
        c = finding.culprit
        written = finding.category in ("inplace-op", "inplace-module", "optimizer-step-between")
        verb = ("at" if c.kind == "expression" or finding.error == "silent-no-grad" else
                "written at" if written else "assigned at")
        where = f", {verb} {c.file}:{c.line}" if c.file and c.line else ""
        lines.append(f"  culprit    {c.expression} ({c.kind}){where}")
        if c.code:
            lines.append(f"               {c.code}")
    if finding.freeing_backward:
        lines.append(_place("  freed by  ", finding.freeing_backward))
    if finding.failing_backward:
        lines.append(_place("  failed at ", finding.failing_backward))
    for key, value in finding.details.items():
        if key in ("writer", "cut") and isinstance(value, dict) and "file" in value:
            lines.append(_place(f"  {key:<10}", Location.from_dict(value)))
    lines.append("")
    lines.extend(_wrap(finding.message, "  "))
    if finding.fix:
        fix = finding.fix
        lines.append("")
        lines.append(f"  fix ({fix.strategy}): {fix.description}")
        lines.extend("    " + line for line in fix.diff.rstrip("\n").splitlines())
    return lines


def _place(label: str, loc: Location) -> str:
    code = f"   {loc.code}" if loc.code else ""
    return f"{label} {loc.file}:{loc.line}{code}"


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False)
