"""What a cause wants changed in the user's source, as plain operations.

Diagnosis knows *what* to change (it read the source and the graph); `fixes/` turns these
operations into edits and a diff. Positions are 1-based lines and 0-based character columns.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from autograd_doctor.findings import Finding


@dataclass(frozen=True)
class Insert:
    """Insert `statement` (may span lines) before line `before`, indented by `indent`."""

    file: str
    before: int
    statement: str
    indent: str


@dataclass(frozen=True)
class Replace:
    """Replace the text from (line, col) to (end_line, end_col) by `text`."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    text: str


@dataclass(frozen=True)
class Delete:
    """Delete whole lines `start`..`end`."""

    file: str
    start: int
    end: int


@dataclass(frozen=True)
class Move:
    """Move whole lines `start`..`end` to before line `before`, re-indented to `indent`."""

    file: str
    start: int
    end: int
    before: int
    indent: str


Operation = Insert | Replace | Delete | Move


@dataclass(frozen=True)
class Remedy:
    strategy: str
    description: str
    file: str
    line: int
    operations: tuple[Operation, ...]


@dataclass(frozen=True)
class Diagnosis:
    """A cause module's answer: the finding, and what to change to fix it."""

    finding: Finding
    remedy: Remedy | None = None


def replace_node(file: str, node: ast.expr, text: str) -> Replace:
    """Replace the source span of an expression node."""
    return Replace(file, node.lineno, node.col_offset, node.end_lineno or node.lineno,
                   node.end_col_offset or node.col_offset, text)


def detached(expr: str, structure: str = "T", var: str = "t") -> str:
    """The idiomatic detached form of `expr` for a value shaped like `structure`.

    T -> `h.detach()`; (T, T) -> `tuple(t.detach() for t in h)`; [(T, T), ...] -> a nested
    comprehension. Unknown shapes fall back to a tensor.
    """
    base = _wrap(expr)
    if structure.startswith("("):
        inner = _first_element(structure)
        return f"tuple({detached(var, inner, var + 't')} for {var} in {expr})"
    if structure.startswith("["):
        inner = _first_element(structure)
        return f"[{detached(var, inner, var + 't')} for {var} in {expr}]"
    return f"{base}.detach()"


def _first_element(structure: str) -> str:
    body = structure[1:-1]
    depth = 0
    for i, ch in enumerate(body):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            return body[:i].strip()
    return body.strip() or "T"


def _wrap(expr: str) -> str:
    """Parenthesise unless `expr` is already an atom followed only by trailers."""
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return f"({expr})"
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Tuple,
                         ast.List)) and not (isinstance(node, ast.Tuple)
                                             and not expr.startswith("(")):
        return expr
    return f"({expr})"
