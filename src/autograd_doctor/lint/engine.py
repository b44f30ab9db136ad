"""One file -> its lint findings: read and parse once, run every selected rule on the same
tree, drop what `# noqa` suppresses. A file that cannot be read or parsed is a finding of its
own (AGD000), never a traceback.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from types import ModuleType

from autograd_doctor.edits.operations import characters
from autograd_doctor.lint import facts as f
from autograd_doctor.lint.rules import Edit, rules, run_rule

PARSE_ERROR = "AGD000"
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?",
                   re.IGNORECASE)


@dataclass(frozen=True)
class Change:
    """An Edit in positions: 1-based lines, 0-based columns counted in characters."""

    kind: str
    line: int
    col: int
    end_line: int
    end_col: int
    text: str


@dataclass(frozen=True)
class Plan:
    strategy: str
    description: str
    safe: bool
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    column: int  # 1-based, in characters
    rule: str
    message: str
    culprit: str = ""
    error: str = ""  # the runtime family it predicts
    category: str = ""
    fix: Plan | None = None


def lint_text(path: str, source: bytes, select: frozenset[str] | None = None,
              ignore: frozenset[str] = frozenset()) -> list[Problem]:
    try:
        text = _decode(source)
    except (UnicodeDecodeError, SyntaxError, LookupError) as exc:
        return [Problem(path, 1, 1, PARSE_ERROR, f"cannot decode the file: {exc}")]
    try:
        tree = ast.parse(text, filename=path)
    except RecursionError:
        return [Problem(path, 1, 1, PARSE_ERROR, "the file nests too deeply to parse")]
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None) or 1
        col = getattr(exc, "offset", None) or 1
        msg = getattr(exc, "msg", None) or str(exc)
        return [Problem(path, line, col, PARSE_ERROR, f"cannot parse the file: {msg}")]
    lines = text.splitlines()
    # A rule reads only files that contain one of its words (`backward`, ...): most files of
    # a repository never call backward, and skipping them is most of lint's speed.
    wanted = [r for r in rules() if (select is None or _chosen(r.CODE, select))
              and not _chosen(r.CODE, ignore) and any(w in text for w in r.NEEDS)]
    if not wanted:
        return []
    facts = f.read_file(tree, path)
    if not facts.has_backward:
        wanted = [r for r in wanted if "backward" not in r.NEEDS]
    if not facts.models and not facts.parameters:
        # Nothing in the file makes history as far as a static reader can tell.
        wanted = [r for r in wanted if not getattr(r, "NEEDS_MODEL", True)]
    found: list[Problem] = []
    try:
        found = _run(wanted, facts, lines, path)
    finally:
        f.forget()
    found = [p for p in found if not _suppressed(lines, p)]
    unique = {(p.line, p.column, p.rule): p for p in found}
    return sorted(unique.values(), key=lambda p: (p.line, p.column, p.rule))


def _run(wanted: list[ModuleType], facts: f.FileFacts, lines: list[str],
         path: str) -> list[Problem]:
    found: list[Problem] = []
    for module in wanted:
        for hit in run_rule(module, facts):
            line = getattr(hit.node, "lineno", 1)
            col = _chars(lines, line, getattr(hit.node, "col_offset", 0)) + 1
            plan = None
            if hit.fix is not None:
                plan = Plan(hit.fix.strategy, hit.fix.description, hit.fix.safe,
                            tuple(_change(lines, e) for e in hit.fix.edits))
            found.append(Problem(path, line, col, module.CODE, hit.message, hit.culprit,
                                 module.ERROR, module.CATEGORY, plan))
    return found


def _chosen(code: str, prefixes: frozenset[str]) -> bool:
    """`AGD1` selects AGD101..AGD199, as ruff and flake8 prefixes do."""
    return any(code.startswith(p.upper()) for p in prefixes)


def _decode(source: bytes) -> str:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    text = source.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def _chars(lines: list[str], line: int, byte_col: int) -> int:
    """ast counts columns in UTF-8 bytes; editors, SARIF and libcst count characters."""
    return characters(lines[line - 1], byte_col) if 1 <= line <= len(lines) else byte_col


def _change(lines: list[str], edit: Edit) -> Change:
    node = edit.node
    line = getattr(node, "lineno", 1)
    end = getattr(node, "end_lineno", line) or line
    return Change(edit.kind, line, _chars(lines, line, getattr(node, "col_offset", 0)), end,
                  _chars(lines, end, getattr(node, "end_col_offset", 0) or 0), edit.text)


def _suppressed(lines: list[str], problem: Problem) -> bool:
    """`# noqa` on the reported line silences every rule there; `# noqa: AGD101` that one."""
    if not 1 <= problem.line <= len(lines):
        return False
    match = _NOQA.search(lines[problem.line - 1])
    if match is None:
        return False
    codes = match.group("codes")
    if not codes:
        return True
    return problem.rule in {c.upper() for c in re.split(r"[\s,]+", codes) if c}
