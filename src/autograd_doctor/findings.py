"""The report data: frozen dataclasses of plain values and their JSON form.

This module is the contract documented in docs/report-format.md (with a JSON Schema in the
package, report.schema.json). It imports nothing from the package and nothing from torch, so
renderers, editors and CI can read a report without either. The ids that may appear in
`error`, `category` and `fix.strategy` come from the diagnosis registry and are listed in
the schema.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 1
TOOL_NAME = "autograd-doctor"
TOOL_VERSION = "0.1.0"

STATUSES = ("clean", "diagnosed", "undiagnosed", "error")
# Whether a fix was run before it was shown (`Fix.status`).
FIX_STATUSES = ("verified", "failed", "not tried")
# What the culprit's line is (`Culprit.role`).
ROLES = ("assigned", "written", "read", "made")

JSON = Any  # a value json.dumps accepts


@dataclass(frozen=True)
class Location:
    """A place in the user's source. `file` is as the user would type it."""

    file: str
    line: int
    code: str = ""  # that line of source, stripped, for the terminal

    def to_dict(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"file": self.file, "line": self.line}
        if self.code:
            out["code"] = self.code
        return out

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> Location:
        return cls(file=data["file"], line=data["line"], code=data.get("code", ""))


@dataclass(frozen=True)
class Culprit:
    """The tensor as the user wrote it, and where it was assigned (file/line may be unknown)."""

    expression: str
    kind: str  # local, global, attribute, container-element, parameter, expression
    file: str | None = None
    line: int | None = None
    code: str = ""
    role: str = "assigned"  # what happens at `line` (ROLES): assigned, written, read, made

    def to_dict(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "expression": self.expression,
            "file": self.file,
            "line": self.line,
            "kind": self.kind,
            "role": self.role,
        }
        if self.code:
            out["code"] = self.code
        return out

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> Culprit:
        return cls(
            expression=data["expression"],
            kind=data["kind"],
            file=data.get("file"),
            line=data.get("line"),
            code=data.get("code", ""),
            role=data.get("role", "assigned"),
        )


@dataclass(frozen=True)
class Edit:
    """Replace lines `start`..`end` (1-based, inclusive) of `file` by `text`.

    `end == start - 1` inserts before `start`. `old` is the text being replaced, so an
    edit refuses to apply to a file that changed since the report was made.
    """

    file: str
    start: int
    end: int
    old: str
    text: str

    def to_dict(self) -> dict[str, JSON]:
        return {"file": self.file, "start": self.start, "end": self.end, "old": self.old,
                "text": self.text}

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> Edit:
        return cls(data["file"], data["start"], data["end"], data["old"], data["text"])


@dataclass(frozen=True)
class Fix:
    strategy: str
    description: str
    file: str
    line: int
    diff: str
    edits: tuple[Edit, ...] = ()
    status: str = "not tried"  # FIX_STATUSES: was it run, in a scratch copy, before shown?
    verification: str = ""  # what was run and what came of it, in a line

    def to_dict(self) -> dict[str, JSON]:
        return {
            "strategy": self.strategy,
            "description": self.description,
            "file": self.file,
            "line": self.line,
            "diff": self.diff,
            "edits": [e.to_dict() for e in self.edits],
            "status": self.status,
            "verification": self.verification,
        }

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> Fix:
        return cls(
            strategy=data["strategy"],
            description=data["description"],
            file=data["file"],
            line=data["line"],
            diff=data["diff"],
            edits=tuple(Edit.from_dict(e) for e in data.get("edits", ())),
            status=data.get("status", "not tried"),
            verification=data.get("verification", ""),
        )


@dataclass(frozen=True)
class Finding:
    """One problem, in the parts a reader needs: what happened (`error`, `title`), why
    (`category`, `message`), where (`culprit`, the backward calls, location-valued
    `details`) and what to do (`hint`, `fix`)."""

    error: str
    category: str
    message: str  # the whole explanation, ending with the hint
    culprit: Culprit | None = None
    failing_backward: Location | None = None
    freeing_backward: Location | None = None
    fix: Fix | None = None
    # Kind-specific facts (the in-place writer, growth figures, parameter names...). A value
    # of the form {"file", "line", "code"} is a place; renderers show it under its key.
    details: dict[str, JSON] = field(default_factory=dict)
    title: str = ""  # what happened, in words
    hint: str = ""  # what to do, in one or two sentences (the end of `message`)
    # Other fixes that fit, in order of preference: verification tries them when `fix` fails.
    alternatives: tuple[Fix, ...] = ()
    # Lint findings (`error` "lint"): the rule that fired and the 1-based column it points at.
    rule: str = ""
    column: int | None = None

    def to_dict(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "error": self.error,
            "category": self.category,
            "title": self.title,
            "message": self.message,
            "hint": self.hint,
            "culprit": self.culprit.to_dict() if self.culprit else None,
            "failing_backward": self.failing_backward.to_dict() if self.failing_backward else None,
            "freeing_backward": self.freeing_backward.to_dict() if self.freeing_backward else None,
            "fix": self.fix.to_dict() if self.fix else None,
        }
        if self.details:
            out["details"] = self.details
        if self.alternatives:
            out["alternatives"] = [f.to_dict() for f in self.alternatives]
        if self.rule:
            out["rule"] = self.rule
            out["column"] = self.column
        return out

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> Finding:
        def opt(key: str, kind: Any) -> Any:
            value = data.get(key)
            return kind.from_dict(value) if value else None

        return cls(
            error=data["error"],
            category=data["category"],
            message=data["message"],
            culprit=opt("culprit", Culprit),
            failing_backward=opt("failing_backward", Location),
            freeing_backward=opt("freeing_backward", Location),
            fix=opt("fix", Fix),
            details=dict(data.get("details") or {}),
            title=data.get("title", ""),
            hint=data.get("hint", ""),
            alternatives=tuple(Fix.from_dict(f) for f in data.get("alternatives", ())),
            rule=data.get("rule", ""),
            column=data.get("column"),
        )


@dataclass(frozen=True)
class OriginalError:
    """The user's exception as Python printed it (kept so `show` can re-render a run)."""

    type: str
    message: str
    traceback: str = ""

    def to_dict(self) -> dict[str, JSON]:
        return {"type": self.type, "message": self.message, "traceback": self.traceback}

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> OriginalError:
        return cls(data["type"], data["message"], data.get("traceback", ""))


@dataclass(frozen=True)
class Report:
    command: str
    status: str
    exit_code: int
    findings: tuple[Finding, ...] = ()
    # Things worth knowing that are not alarms (a few unused parameters, say).
    notes: tuple[str, ...] = ()
    # Why a known error could not be placed, or why the tool itself failed.
    reason: str = ""
    original_error: OriginalError | None = None
    target: str = ""  # the script or module that ran
    # What went wrong inside autograd-doctor while the program ran (the program itself was
    # left alone): one line each.
    problems: tuple[str, ...] = ()
    # How the traced replay went: {"status": "used" | "different failure" | ..., "seconds"}.
    replay: dict[str, JSON] = field(default_factory=dict)

    def to_dict(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "version": SCHEMA_VERSION,
            "tool": {"name": TOOL_NAME, "version": TOOL_VERSION},
            "command": self.command,
            "status": self.status,
            "exit_code": self.exit_code,
            "findings": [f.to_dict() for f in self.findings],
            "notes": list(self.notes),
            "problems": list(self.problems),
        }
        if self.target:
            out["target"] = self.target
        if self.reason:
            out["reason"] = self.reason
        if self.original_error:
            out["original_error"] = self.original_error.to_dict()
        if self.replay:
            out["replay"] = self.replay
        return out

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> Report:
        if data.get("version") != SCHEMA_VERSION:
            raise ValueError(f"unsupported report version {data.get('version')!r}")
        original = data.get("original_error")
        return cls(
            command=data["command"],
            status=data["status"],
            exit_code=data["exit_code"],
            findings=tuple(Finding.from_dict(f) for f in data.get("findings", ())),
            notes=tuple(data.get("notes", ())),
            reason=data.get("reason", ""),
            original_error=OriginalError.from_dict(original) if original else None,
            target=data.get("target", ""),
            problems=tuple(data.get("problems", ())),
            replay=dict(data.get("replay") or {}),
        )
