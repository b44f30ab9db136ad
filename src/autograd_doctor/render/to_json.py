"""Report -> the JSON document of FINDINGS.md."""

from __future__ import annotations

import json

from autograd_doctor.findings import Report


def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2) + "\n"
