"""Report -> text. Formatting only: no torch, no globals, no printing."""

from __future__ import annotations

from autograd_doctor.findings import Report
from autograd_doctor.render.to_json import render_json
from autograd_doctor.render.to_terminal import render_terminal

FORMATS = {"terminal": render_terminal, "json": render_json}


def render(report: Report, fmt: str) -> str:
    return FORMATS[fmt](report)
