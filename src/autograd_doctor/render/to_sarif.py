"""Lint problems as SARIF 2.1.0, the format GitHub code scanning and editors read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from autograd_doctor.findings import TOOL_NAME, TOOL_VERSION
from autograd_doctor.lint.engine import PARSE_ERROR, Problem
from autograd_doctor.lint.rules import summary

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
HOME = "https://github.com/autograd-doctor/autograd-doctor"


def sarif(problems: Sequence[Problem], rules: Sequence[ModuleType]) -> str:
    descriptors = [_descriptor(r.CODE, r.NAME, r.__doc__ or "", r.ERROR, r.CATEGORY,
                               summary(r)) for r in rules]
    descriptors.append(_descriptor(PARSE_ERROR, "unreadable-file",
                                   "A file that cannot be decoded or parsed as Python.", "", "",
                                   "A file that cannot be decoded or parsed as Python"))
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    results = [_result(p, index) for p in problems]
    document = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": TOOL_NAME, "version": TOOL_VERSION,
                                "informationUri": HOME, "rules": descriptors}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(document, indent=2) + "\n"


def _descriptor(code: str, name: str, doc: str, error: str, category: str,
                short: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": code,
        "name": name,
        "shortDescription": {"text": short + "."},
        "fullDescription": {"text": " ".join(doc.split())},
        "help": {"text": doc.strip(), "markdown": doc.strip()},
        "defaultConfiguration": {"level": "error" if code != PARSE_ERROR else "warning"},
    }
    if error:
        out["properties"] = {"predicts": error, "category": category,
                             "tags": ["pytorch", "autograd", error]}
    return out


def _result(problem: Problem, index: dict[str, int]) -> dict[str, Any]:
    uri = Path(problem.path).as_posix()
    out: dict[str, Any] = {
        "ruleId": problem.rule,
        "ruleIndex": index[problem.rule],
        "level": "error" if problem.rule != PARSE_ERROR else "warning",
        "message": {"text": problem.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": uri},
            "region": {"startLine": problem.line, "startColumn": problem.column},
        }}],
    }
    if problem.fix is not None:
        out["properties"] = {"fix": problem.fix.strategy, "safe": problem.fix.safe}
    return out
