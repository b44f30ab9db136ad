"""Where things are: report locations, and the loop and assignments around a suspect."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from autograd_doctor.capture.ledger import FrameInfo
from autograd_doctor.findings import Culprit, Location
from autograd_doctor.graph import source


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
    return Location(user_path(file), line, source.line_text(file, line))


def frame_location(frame: FrameInfo | None) -> Location | None:
    return location(frame.file, frame.line) if frame else None


def culprit(expression: str, kind: str, file: str | None, line: int | None) -> Culprit:
    if file is None or line is None:
        return Culprit(expression, kind)
    return Culprit(expression, kind, user_path(file), line, source.line_text(file, line))


@dataclass
class Placement:
    """A name in its scope: the loop that repeats around it and where it is assigned."""

    file: str
    scope: source.Scope
    line: int  # the line the frame was at when the name was seen
    loop: source.Loop | None  # innermost loop of the scope around `line`
    stores: list[ast.stmt]  # every statement of the scope that binds the name

    @property
    def stores_in_loop(self) -> list[ast.stmt]:
        loop = self.loop
        return [s for s in self.stores if loop is not None and source.inside(s, loop)
                and s is not loop]

    @property
    def stores_before_loop(self) -> list[ast.stmt]:
        loop = self.loop
        if loop is None:
            return [s for s in self.stores if s.lineno <= self.line]
        return [s for s in self.stores if s.lineno < loop.lineno]


def place(frame: FrameInfo, expression: str) -> Placement | None:
    scope = source.scope_of(frame.file, frame.function, frame.first_line)
    if scope is None:
        return None
    loops = source.loops_around(scope, frame.line)
    return Placement(frame.file, scope, frame.line, loops[-1] if loops else None,
                     source.stores(scope, expression))


def top_statement(block: list[ast.stmt], node: ast.AST) -> ast.stmt | None:
    """The statement directly in `block` that contains `node`."""
    for stmt in block:
        if source.inside(node, stmt):
            return stmt
    return None


def first_use(body: list[ast.stmt], scope: ast.AST, expression: str) -> ast.stmt | None:
    """The first statement of `body` (a loop or function body) that reads `expression`."""
    start, end = body[0].lineno, body[-1].end_lineno or body[-1].lineno
    for read in source.reads(scope, expression):
        if start <= read.lineno <= end:
            return top_statement(body, read)
    return None


def may_be_none(scope: ast.AST, expression: str) -> bool:
    """Is the name ever bound to a literal None (an RNN state before its first step)?"""
    for stmt in source.stores(scope, expression):
        value = getattr(stmt, "value", None)
        if isinstance(value, ast.Constant) and value.value is None:
            return True
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = scope.args
        defaults = dict(zip([a.arg for a in args.args][-len(args.defaults):] if args.defaults
                            else [], args.defaults))
        value = defaults.get(expression)
        if isinstance(value, ast.Constant) and value.value is None:
            return True
    return False


def value_span(stmt: ast.stmt) -> ast.expr | None:
    """The value an assignment stores."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return stmt.value
    return None
