"""What a cause wants changed in the user's source, as plain operations. Torch-free.

Positions are 1-based lines and 0-based columns counted in characters (code points), as
editors and libcst count them. `ast` counts columns in UTF-8 bytes: `replace_node` converts,
so an operation built from a syntax tree is right on lines with non-ASCII text.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from autograd_doctor.source import reading


@dataclass(frozen=True)
class Insert:
    """Insert `statement` (may span lines) before line `before`, indented by `indent`."""

    file: str
    before: int
    statement: str
    indent: str


@dataclass(frozen=True)
class Replace:
    """Replace the text from (line, col) to (end_line, end_col), in characters, by `text`."""

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
    """A fix before it is turned into text: its strategy id (edits.strategies), a one-line
    description, the main place it edits, and the operations."""

    strategy: str
    description: str
    file: str
    line: int
    operations: tuple[Operation, ...]


def character_column(file: str, line: int, byte_col: int) -> int:
    """An `ast` column (UTF-8 bytes) as a column in characters."""
    text = reading.lines(file)[line - 1] if 0 < line <= len(reading.lines(file)) else ""
    return characters(text, byte_col)


def characters(line_text: str, byte_col: int) -> int:
    """How many characters the first `byte_col` UTF-8 bytes of a line hold."""
    return len(line_text.encode()[:byte_col].decode(errors="ignore"))


def replace_node(file: str, node: ast.expr | ast.stmt, text: str) -> Replace:
    """Replace the source span of a syntax node (an expression or a statement)."""
    end_line = node.end_lineno or node.lineno
    return Replace(file, node.lineno, character_column(file, node.lineno, node.col_offset),
                   end_line, character_column(file, end_line, node.end_col_offset or 0), text)
