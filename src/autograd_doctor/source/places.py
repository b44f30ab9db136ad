"""Where things are: a user frame as it was seen, report locations, and a name placed in its
scope (the loop around it, the statements that assign it). Torch-free.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass

from autograd_doctor.findings import Culprit, Location
from autograd_doctor.source import reading


@dataclass(frozen=True)
class FrameInfo:
    """A user frame as it was when it was seen (the frame itself is never kept)."""

    file: str  # co_filename: absolute, or as Python was given it
    line: int
    function: str
    first_line: int

    def same_code(self, other: FrameInfo) -> bool:
        return (self.file, self.first_line, self.function) == (
            other.file, other.first_line, other.function)

    @property
    def scope(self) -> reading.Scope | None:
        return reading.scope_of(self.file, self.function, self.first_line)

    @property
    def statement(self) -> ast.stmt | None:
        """The simple statement the frame was executing."""
        scope = self.scope
        return reading.statement_at(scope, self.line) if scope is not None else None


def naming(site: tuple[FrameInfo, ...], names: set[str]) -> FrameInfo | None:
    """The frame of a stack whose line names one of `names` (the call `freeze(model)` rather
    than the helper's loop over parameters that ran it), else the innermost one."""
    return next((f for f in site if any(n in reading.line_text(f.file, f.line) for n in names)),
                site[0] if site else None)


def user_path(file: str) -> str:
    """The path as the user would type it: relative when under the working directory."""
    if file.startswith("<"):
        return file
    path = os.path.abspath(file)
    cwd = os.getcwd()
    if path.startswith(cwd + os.sep):
        return os.path.relpath(path, cwd)
    return path


def location(file: str, line: int) -> Location:
    return Location(user_path(file), line, reading.line_text(file, line))


def frame_location(frame: FrameInfo | None) -> Location | None:
    return location(frame.file, frame.line) if frame else None


def kind_of(expression: str) -> str:
    """The culprit kind an expression's shape says: `cache["h"]` an element, `self.h` and
    `params.rho` attributes, `h` a local."""
    if expression.endswith("]"):
        return "container-element"
    return "attribute" if "." in expression else "local"


def culprit(expression: str, kind: str, file: str | None, line: int | None,
            role: str = "assigned") -> Culprit:
    if file is None or line is None:
        return Culprit(expression, kind, role=role)
    code = reading.line_text(file, line)
    return Culprit(written_as(expression, code), kind, user_path(file), line, code, role=role)


_PART = re.compile(r"\.?[A-Za-z_]\w*|\[[^\]]*\]")


def written_as(expression: str, code: str) -> str:
    """The name as the line that shows it writes it: `head.prototypes.weight` found from
    the training loop is `self.prototypes.weight` inside the head's own method."""
    if not code or expression in code:
        return expression
    # Python prints strings in single quotes (`log[f'layer{i}']`); the line may use double.
    requoted = expression.replace("'", '"')
    if "'" in expression and requoted in code:
        return requoted
    parts = _PART.findall(expression)
    # Two steps at least (`self.prototypes.weight`): one (`self.features`) too often names
    # an attribute of another object.
    for i in range(1, len(parts) - 1):
        tail = "".join(parts[i:])
        candidate = "self" + (tail if tail.startswith((".", "[")) else "." + tail)
        if candidate in code:
            return candidate
    return expression


@dataclass
class Placement:
    """A name in its scope: the loop that repeats around it and where it is assigned."""

    file: str
    scope: reading.Scope
    line: int  # the line the frame was at when the name was seen
    loop: reading.Loop | None  # innermost loop of the scope around `line`
    stores: list[ast.stmt]  # every statement of the scope that binds the name

    @property
    def stores_in_loop(self) -> list[ast.stmt]:
        loop = self.loop
        return [s for s in self.stores if loop is not None and reading.inside(s, loop)
                and s is not loop]

    @property
    def stores_before_loop(self) -> list[ast.stmt]:
        loop = self.loop
        if loop is None:
            return [s for s in self.stores if s.lineno <= self.line]
        return [s for s in self.stores if s.lineno < loop.lineno]

    @property
    def last_store_before(self) -> ast.stmt | None:
        """The assignment that gave the name the value it had at `line`."""
        before = [s for s in self.stores if s.lineno <= self.line]
        return before[-1] if before else None


def place(frame: FrameInfo, expression: str) -> Placement | None:
    scope = frame.scope
    if scope is None:
        return None
    loops = reading.loops_around(scope, frame.line)
    return Placement(frame.file, scope, frame.line, loops[-1] if loops else None,
                     reading.stores(scope, expression))
