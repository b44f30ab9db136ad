"""Lint fixes written into source through libcst, so that everything the fix does not touch
(formatting, comments, blank lines) stays byte for byte as it was. libcst is imported only
when a fix is written or shown: linting alone never pays for it.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from autograd_doctor.lint.engine import Change


class FixFailed(Exception):
    """A change could not be placed in the file as it is now."""


def apply(text: str, changes: Sequence[Change]) -> str:
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    wrapper = MetadataWrapper(cst.parse_module(text))
    positions = wrapper.resolve(PositionProvider)
    placed: dict[Any, Change] = {}
    for change in changes:
        node = _place(change, positions, cst)
        if node is None:
            raise FixFailed(f"no code at line {change.line} matches the fix")
        placed.setdefault(node, change)  # overlapping fixes: the first one wins
    updated = wrapper.module.visit(_Writer(placed, cst))
    new = str(updated.code)
    compile(new, "<fixed>", "exec")  # never write something python cannot read
    return new


def _place(change: Change, positions: Any, cst: Any) -> Any:
    start, end = (change.line, change.col), (change.end_line, change.end_col)
    if change.kind in ("insert-before", "delete", "replace-statement"):
        kinds: tuple[type, ...] = (cst.SimpleStatementLine, cst.BaseCompoundStatement)
        lines = [n for n, r in positions.items() if isinstance(n, kinds)
                 and r.start.line == change.line]
        return lines[0] if lines else None
    kinds = (cst.Call,) if change.kind == "drop-keyword" else (cst.BaseExpression,)
    best, size = None, None
    for node, where in positions.items():
        if not isinstance(node, kinds):
            continue
        a, b = (where.start.line, where.start.column), (where.end.line, where.end.column)
        if a <= start and b >= end:
            span = (b[0] - a[0], b[1] - a[1]) if b[0] != a[0] else (0, b[1] - a[1])
            if size is None or span < size:
                best, size = node, span
    return best


class _Writer:
    """A libcst transformer built on demand (libcst is imported lazily)."""

    def __new__(cls, placed: dict[Any, Change], cst: Any) -> Any:
        class Writer(cst.CSTTransformer):  # type: ignore[misc]
            def on_leave(self, original: Any, updated: Any) -> Any:
                change = placed.get(original)
                if change is None:
                    return updated
                if change.kind == "replace":
                    return cst.parse_expression(change.text)
                if change.kind == "insert-before":
                    return cst.FlattenSentinel([cst.parse_statement(change.text + "\n"),
                                                updated])
                if change.kind == "delete":
                    return cst.RemoveFromParent()
                if change.kind == "replace-statement":
                    return cst.parse_statement(change.text + "\n").with_changes(
                        leading_lines=updated.leading_lines)
                args = [a for a in updated.args if not (
                    a.keyword is not None and a.keyword.value == change.text)]
                if args:
                    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                return updated.with_changes(args=args)

        return Writer()


def diff(path: str, old: str, new: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(keepends=True),
                                        new.splitlines(keepends=True),
                                        f"a/{path}", f"b/{path}"))
