"""Validate a report (as JSON data) against the schema shipped in the package."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("autograd_doctor").joinpath("report.schema.json").read_text()
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate(report: dict[str, Any]) -> None:
    errors = sorted(_validator().iter_errors(report), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
