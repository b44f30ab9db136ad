"""Remedy -> Fix: apply a cause's operations to the source text, and produce the edits and
a unified diff; Fix -> new file contents. Never writes files. Torch-free.

Diff headers name files relative to the directory of the fix's main file, so the diff
applies with `patch -p1` (or `git apply`) from that directory.
"""

from __future__ import annotations

import difflib
import os
import textwrap
from dataclasses import dataclass, replace

from autograd_doctor.edits.operations import Delete, Insert, Move, Operation, Remedy, Replace
from autograd_doctor.edits.strategies import STRATEGIES
from autograd_doctor.findings import Edit, Fix
from autograd_doctor.source.places import user_path


class FixError(Exception):
    """A fix could not be built or applied (the file changed, operations overlap)."""


@dataclass(frozen=True)
class _Primitive:
    line: int
    col: int  # ordering within a line; inserts use -1
    kind: str  # "replace", "insert", "delete"
    end_line: int = 0
    end_col: int = 0
    text: str = ""


def read(file: str) -> list[str]:
    with open(file, encoding="utf-8") as handle:
        return handle.read().splitlines(keepends=True)


def build(remedy: Remedy) -> Fix:
    if remedy.strategy not in STRATEGIES:
        raise FixError(f"unknown fix strategy {remedy.strategy!r} (edits.strategies lists them)")
    by_file: dict[str, list[Operation]] = {}
    for op in remedy.operations:
        by_file.setdefault(op.file, []).append(op)
    base = os.path.dirname(os.path.abspath(remedy.file))
    diffs: list[str] = []
    edits: list[Edit] = []
    for file, ops in by_file.items():
        old = read(file)
        new = transform(old, ops)
        name = _relative(file, base)
        diffs.append("".join(difflib.unified_diff(
            old, new, fromfile=f"a/{name}", tofile=f"b/{name}")))
        edits.extend(_edits(user_path(file), old, new))
    return Fix(
        strategy=remedy.strategy,
        description=remedy.description,
        file=user_path(remedy.file),
        line=remedy.line,
        diff="".join(diffs),
        edits=tuple(edits),
    )


def transform(lines: list[str], ops: list[Operation]) -> list[str]:
    """Apply operations given in the original file's coordinates."""
    prims: list[_Primitive] = []
    for op in ops:
        if isinstance(op, Replace):
            prims.append(_Primitive(op.line, op.col, "replace", op.end_line, op.end_col, op.text))
        elif isinstance(op, Insert):
            prims.append(_Primitive(op.before, -2, "insert", text=_indent(op.statement, op.indent)))
        elif isinstance(op, Delete):
            prims.append(_Primitive(op.start, -1, "delete", op.end))
        elif isinstance(op, Move):
            moved = _dedent("".join(lines[op.start - 1:op.end]))
            prims.append(_Primitive(op.before, -2, "insert", text=_indent(moved, op.indent)))
            prims.append(_Primitive(op.start, -1, "delete", op.end))
    out = list(lines)
    # Bottom-up, right-to-left, so earlier coordinates stay valid. At one line, a deletion
    # that starts there goes before an insertion there (which would otherwise be deleted).
    # Inserts at the same line keep their given order: later ones are applied first and so
    # end up below.
    indexed = sorted(enumerate(prims), key=lambda p: (p[1].line, p[1].col, p[0]), reverse=True)
    for _, p in indexed:
        if p.kind == "replace":
            # Columns count characters (edits.operations says why).
            joined = out[p.line - 1][: p.col] + p.text + out[p.end_line - 1][p.end_col:]
            # A replacement may span lines: keep one list item per line, as a diff needs.
            out[p.line - 1: p.end_line] = joined.splitlines(keepends=True)
        elif p.kind == "insert":
            out[p.line - 1: p.line - 1] = p.text.splitlines(keepends=True)
        else:
            del out[p.line - 1: p.end_line]
    return out


def _indent(text: str, indent: str) -> str:
    return "".join(indent + line if line.strip() else line
                   for line in text.splitlines(keepends=True)).rstrip("\n") + "\n"


def _dedent(text: str) -> str:
    return textwrap.dedent(text)


def _edits(file: str, old: list[str], new: list[str]) -> list[Edit]:
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [
        Edit(file, i1 + 1, i2, "".join(old[i1:i2]), "".join(new[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def apply(*fixes: Fix) -> dict[str, str]:
    """New contents of every file the fixes edit, read from disk, checking each edit's old
    text. All edits are in the coordinates of the files as they were when the report was
    made."""
    files = {e.file for fix in fixes for e in fix.edits}
    return apply_texts({f: "".join(read(f)) for f in files}, fixes)


def apply_texts(texts: dict[str, str], fixes: tuple[Fix, ...] | list[Fix]) -> dict[str, str]:
    """The same on texts held in memory (`texts` maps each edited file to its content)."""
    by_file: dict[str, list[Edit]] = {}
    for fix in fixes:
        for edit in fix.edits:
            by_file.setdefault(edit.file, []).append(edit)
    out: dict[str, str] = {}
    for file, edits in by_file.items():
        if file not in texts:
            raise FixError(f"{file}: no such file to edit")
        lines = texts[file].splitlines(keepends=True)
        ordered = sorted(edits, key=lambda e: (e.start, e.end), reverse=True)
        for later, edit in zip(ordered, ordered[1:]):
            if edit.end >= later.start and (edit.end >= edit.start or later.end >= later.start):
                raise FixError(f"{file}:{later.start}: two fixes edit the same lines")
        for edit in ordered:
            current = "".join(lines[edit.start - 1: edit.end])
            if current != edit.old:
                raise FixError(f"{file}:{edit.start} changed since the report was made")
            lines[edit.start - 1: edit.end] = edit.text.splitlines(keepends=True)
        out[file] = "".join(lines)
    return out


def chained(fixes: list[Fix]) -> list[Fix]:
    """The fixes with each diff taken against the files as the fixes before it leave them, so
    that a reader can apply the diffs of a report one after the other (two fixes near each
    other in one file would otherwise conflict in their context lines)."""
    out: list[Fix] = []
    for k, fix in enumerate(fixes):
        files = {e.file for e in fix.edits}
        earlier = [f for f in fixes[:k] if files & {e.file for e in f.edits}]
        if not earlier:
            out.append(fix)
            continue
        try:
            texts = {f: "".join(read(f)) for f in files | {e.file for g in earlier
                                                          for e in g.edits}}
            before = {**texts, **apply_texts(texts, earlier)}
            after = {**before, **apply_texts(texts, [*earlier, fix])}
        except (FixError, OSError):
            out.append(fix)  # overlapping fixes: each diff stands alone, as built
            continue
        base = os.path.dirname(os.path.abspath(fix.file))
        diff = "".join("".join(difflib.unified_diff(
            before[f].splitlines(keepends=True), after[f].splitlines(keepends=True),
            fromfile=f"a/{_relative(f, base)}", tofile=f"b/{_relative(f, base)}"))
            for f in sorted(files))
        out.append(replace(fix, diff=diff))
    return out


def _relative(file: str, base: str) -> str:
    return os.path.relpath(os.path.abspath(file), base).replace(os.sep, "/")
