"""The report format as data: the JSON Schema of a report, with every id (error, category,
fix strategy) taken from the registry, so each is listed once. `report.schema.json` in the
package and the tables in docs/report-format.md are generated from here:

    python -m autograd_doctor.report_format --write     # refresh both (a test checks them)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from autograd_doctor import diagnosis
from autograd_doctor.edits.strategies import STRATEGIES
from autograd_doctor.findings import ROLES, SCHEMA_VERSION, STATUSES, TOOL_NAME

PACKAGE = Path(__file__).parent
SCHEMA_FILE = PACKAGE / "report.schema.json"
DOCS_FILE = PACKAGE.parent.parent / "docs" / "report-format.md"
KINDS = ("local", "global", "attribute", "container-element", "parameter", "expression")
COMMANDS = ("run", "show", "lint")

_NULLABLE_INT = {"type": ["integer", "null"]}
_NULLABLE_STR = {"type": ["string", "null"]}


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties}


def schema() -> dict[str, Any]:
    families = diagnosis.families()
    per_family = [
        {"if": {"properties": {"error": {"const": f.error}}},
         "then": {"properties": {"category": {"enum": list(diagnosis.categories(f.error))}}}}
        for f in families
    ]
    location = _object(["file", "line"], {"file": {"type": "string"},
                                          "line": {"type": "integer", "minimum": 1},
                                          "code": {"type": "string"}})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:{TOOL_NAME}:report:{SCHEMA_VERSION}",
        "title": f"{TOOL_NAME} report",
        **_object(["version", "tool", "command", "status", "exit_code", "findings", "notes"], {
            "version": {"const": SCHEMA_VERSION},
            "tool": _object(["name", "version"], {"name": {"const": TOOL_NAME},
                                                  "version": {"type": "string"}}),
            "command": {"enum": list(COMMANDS)},
            "status": {"enum": list(STATUSES)},
            "exit_code": {"type": "integer"},
            "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
            "notes": {"type": "array", "items": {"type": "string"}},
            "problems": {"type": "array", "items": {"type": "string"}},
            "target": {"type": "string"},
            "reason": {"type": "string"},
            "replay": _object(["status", "seconds"], {
                "status": {"enum": ["used", "different failure", "different findings",
                                    "failed"]},
                "seconds": {"type": "number"}, "problem": {"type": "string"},
                "problems": {"type": "array", "items": {"type": "string"}}}),
            "original_error": _object(["type", "message"], {
                "type": {"type": "string"}, "message": {"type": "string"},
                "traceback": {"type": "string"}}),
        }),
        "$defs": {
            "location": location,
            "culprit": _object(["expression", "kind", "file", "line"], {
                "expression": {"type": "string"},
                "kind": {"enum": list(KINDS)},
                "file": _NULLABLE_STR,
                "line": _NULLABLE_INT,
                "code": {"type": "string"},
                "role": {"enum": list(ROLES)},
            }),
            "edit": _object(["file", "start", "end", "old", "text"], {
                "file": {"type": "string"}, "start": {"type": "integer"},
                "end": {"type": "integer"}, "old": {"type": "string"},
                "text": {"type": "string"}}),
            "fix": _object(["strategy", "description", "file", "line", "diff"], {
                "strategy": {"enum": list(STRATEGIES)},
                "description": {"type": "string"},
                "file": {"type": "string"},
                "line": {"type": "integer"},
                "diff": {"type": "string"},
                "edits": {"type": "array", "items": {"$ref": "#/$defs/edit"}},
            }),
            "finding": {
                **_object(["error", "category", "message", "culprit", "failing_backward",
                           "freeing_backward", "fix"], {
                    "error": {"enum": [f.error for f in families] + ["lint"]},
                    "category": {"type": "string"},
                    "title": {"type": "string"},
                    "message": {"type": "string"},
                    "hint": {"type": "string"},
                    "culprit": {"oneOf": [{"$ref": "#/$defs/culprit"}, {"type": "null"}]},
                    "failing_backward": {"oneOf": [{"$ref": "#/$defs/location"},
                                                   {"type": "null"}]},
                    "freeing_backward": {"oneOf": [{"$ref": "#/$defs/location"},
                                                   {"type": "null"}]},
                    "fix": {"oneOf": [{"$ref": "#/$defs/fix"}, {"type": "null"}]},
                    "details": {"type": "object"},
                    "rule": {"type": "string", "pattern": "^AGD[0-9]{3}$"},
                    "column": {"type": "integer", "minimum": 1},
                }),
                "allOf": per_family + [{
                    # A lint finding names its rule, and the runtime cause it predicts.
                    "if": {"properties": {"error": {"const": "lint"}}},
                    "then": {"required": ["rule", "column"], "properties": {
                        "category": {"enum": sorted({c for f in families
                                                     for c in diagnosis.categories(f.error)})},
                        "details": {"required": ["predicts"]}}}}],
            },
        },
    }


def tables() -> str:
    """The id tables of docs/report-format.md."""
    rows = ["| error | title | categories |", "|---|---|---|"]
    for f in diagnosis.families():
        cats = ", ".join(f"`{c}`" for c in diagnosis.categories(f.error))
        rows.append(f"| `{f.error}` | {f.title} | {cats} |")
    rows += ["", "| category | error | what it means |", "|---|---|---|"]
    for module in diagnosis.causes():
        summary = (module.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        rows.append(f"| `{module.CATEGORY}` | `{diagnosis.family_of(module).error}` | "
                    f"{summary} |")
    rows += ["", "| fix strategy | the edit |", "|---|---|"]
    rows += [f"| `{sid}` | {what} |" for sid, what in STRATEGIES.items()]
    return "\n".join(rows) + "\n"


BEGIN, END = "<!-- ids: generated -->\n", "<!-- /ids -->\n"


def docs_with_tables(text: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}{tables()}{END}{tail}"


def schema_text() -> str:
    return json.dumps(schema(), indent=2) + "\n"


if __name__ == "__main__":
    if "--write" in sys.argv:
        SCHEMA_FILE.write_text(schema_text())
        DOCS_FILE.write_text(docs_with_tables(DOCS_FILE.read_text()))
    else:
        sys.stdout.write(schema_text())
