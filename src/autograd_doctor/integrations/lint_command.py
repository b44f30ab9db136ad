"""`autograd-doctor lint`: paths -> files -> problems (in parallel) -> output, fixes and an
exit code. Exit codes: 0 nothing found, 1 findings, 2 bad usage or an internal error.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tokenize
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from autograd_doctor.findings import Culprit, Finding, Fix, Report
from autograd_doctor.lint import files
from autograd_doctor.lint.engine import PARSE_ERROR, Problem, lint_text
from autograd_doctor.lint.rules import rules

EXIT_CLEAN, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
_CHUNK = 16  # files per task: enough to amortise a worker round trip


@dataclass(frozen=True)
class LintOptions:
    paths: tuple[str, ...]
    format: str = "text"
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    jobs: int = 0  # 0: one per core
    output: str | None = None


def lint_command(options: LintOptions) -> int:
    try:
        return _lint_command(options)
    except Exception as exc:  # noqa: BLE001 - our bug: one line and exit code 2, as documented
        print(f"autograd-doctor lint: internal error ({type(exc).__name__}: {exc}); this is "
              f"an autograd-doctor problem, please report it", file=sys.stderr)
        return EXIT_USAGE


def _lint_command(options: LintOptions) -> int:
    missing = [p for p in options.paths if not os.path.exists(p)]
    if missing:
        print(f"autograd-doctor lint: no such file or folder: {', '.join(missing)}",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        config = files.load_config(Path.cwd())
    except files.ConfigError as exc:
        print(f"autograd-doctor lint: {exc}", file=sys.stderr)
        return EXIT_USAGE
    select = options.select if options.select is not None else config.select
    ignore = options.ignore | config.ignore
    known = {r.CODE for r in rules()} | {PARSE_ERROR}
    for code in (select or set()) | ignore:
        if not any(k.startswith(code.upper()) for k in known):
            print(f"autograd-doctor lint: unknown rule {code!r} (see `autograd-doctor rule`)",
                  file=sys.stderr)
            return EXIT_USAGE
    paths = files.python_files(list(options.paths), config)
    problems = lint_files(paths, select, ignore, options.jobs)
    written: list[str] = []
    if options.fix or options.diff:
        problems, written = _fixes(problems, options)
    text = _render(problems, options.format)
    if options.output:
        Path(options.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if options.fix and written:
        print(f"autograd-doctor lint: fixed {len(written)} file(s): {', '.join(written)}",
              file=sys.stderr)
    return EXIT_FOUND if problems else EXIT_CLEAN


def lint_files(paths: Sequence[Path], select: frozenset[str] | None = None,
               ignore: frozenset[str] = frozenset(), jobs: int = 0) -> list[Problem]:
    jobs = jobs or os.cpu_count() or 1
    chunks = [list(paths[i:i + _CHUNK]) for i in range(0, len(paths), _CHUNK)]
    if jobs == 1 or len(chunks) < 2:
        results = [_lint_chunk(c, select, ignore) for c in chunks]
    else:
        with ProcessPoolExecutor(min(jobs, len(chunks))) as pool:
            results = list(pool.map(_lint_chunk, chunks, [select] * len(chunks),
                                    [ignore] * len(chunks)))
    return [p for chunk in results for p in chunk]


def _lint_chunk(paths: list[Path], select: frozenset[str] | None,
                ignore: frozenset[str]) -> list[Problem]:
    found: list[Problem] = []
    for path in paths:
        try:
            source = path.read_bytes()
        except OSError as exc:
            found.append(Problem(str(path), 1, 1, PARSE_ERROR, f"cannot read the file: {exc}"))
            continue
        found += lint_text(str(path), source, select, ignore)
    return found


def _fixes(problems: list[Problem], options: LintOptions) -> tuple[list[Problem], list[str]]:
    """Apply (or show, with --diff) the fixes allowed; return the problems left and the
    files written. A file whose fix cannot be placed is left as it was."""
    from autograd_doctor.lint import autofix

    by_file: dict[str, list[Problem]] = {}
    for p in problems:
        if p.fix is not None and p.fix.changes and (p.fix.safe or options.unsafe_fixes):
            by_file.setdefault(p.path, []).append(p)
    fixed: set[tuple[str, int, str]] = set()
    written: list[str] = []
    for path, mine in by_file.items():
        raw = Path(path).read_bytes()
        # Written back in the file's own encoding (its coding cookie), newlines as they were.
        encoding = tokenize.detect_encoding(io.BytesIO(raw).readline)[0]
        old = raw.decode(encoding)
        try:
            new = autofix.apply(old, [c for p in mine if p.fix for c in p.fix.changes])
        except (autofix.FixFailed, SyntaxError, ValueError) as exc:
            print(f"autograd-doctor lint: could not fix {path} ({exc}); left as it was",
                  file=sys.stderr)
            continue
        if new == old:
            continue
        if options.diff:
            sys.stderr.flush()
            sys.stdout.write(autofix.diff(path, old, new))
        if options.fix and not options.diff:
            Path(path).write_bytes(new.encode(encoding))
            written.append(path)
            fixed |= {(p.path, p.line, p.rule) for p in mine}
    return [p for p in problems if (p.path, p.line, p.rule) not in fixed], written


def to_finding(problem: Problem) -> Finding:
    fix = None
    if problem.fix is not None:
        fix = Fix(problem.fix.strategy, problem.fix.description, problem.path, problem.line,
                  "", status="not tried",
                  verification="safe autofix" if problem.fix.safe else "suggestion")
    culprit = Culprit(problem.culprit, "expression", problem.path, problem.line) \
        if problem.culprit else None
    return Finding("lint", problem.category or "unknown", problem.message, culprit, None,
                   None, fix, details={"predicts": problem.error or "none"},
                   rule=problem.rule, column=problem.column)


def _render(problems: list[Problem], fmt: str) -> str:
    if fmt == "json":
        report = Report("lint", "diagnosed" if problems else "clean",
                        EXIT_FOUND if problems else EXIT_CLEAN,
                        findings=tuple(to_finding(p) for p in problems))
        return json.dumps(report.to_dict(), indent=2) + "\n"
    if fmt == "sarif":
        from autograd_doctor.render.to_sarif import sarif

        return sarif(problems, rules())
    lines = [f"{p.path}:{p.line}:{p.column}: {p.rule} {p.message}"
             + (" [fixable]" if p.fix and p.fix.safe and p.fix.changes else "")
             for p in problems]
    if problems:
        safe = sum(1 for p in problems if p.fix and p.fix.safe and p.fix.changes)
        lines.append(f"Found {len(problems)} problem(s)"
                     + (f"; {safe} fixable with --fix" if safe else "") + ".")
    return "\n".join(lines) + ("\n" if lines else "")
