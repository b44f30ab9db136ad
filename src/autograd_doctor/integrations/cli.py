"""`autograd-doctor`: argv -> Options -> the library -> output and exit code.

Exit codes: the script's own code when it ran (1 when it died of an autograd error the
doctor diagnosed, as under python); 1 when it finished but a finding was reported; 2 for
bad arguments or a missing script; 3 when autograd-doctor itself failed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace

from autograd_doctor.findings import TOOL_VERSION, Fix, Report

EXIT_USAGE = 2
EXIT_INTERNAL = 3
MAX_FIX_ROUNDS = 3


@dataclass
class Options:
    command: str
    target: str = ""
    args: list[str] = field(default_factory=list)
    module: bool = False
    format: str = "terminal"
    output: str | None = None
    fix: bool = False
    category: str = ""
    report: str = ""
    # Once the user's script has run, its exit code: a failure of ours after that must not
    # replace it.
    outcome_code: int | None = None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="autograd-doctor",
        description="Run a PyTorch script and explain autograd errors: the tensor, the "
                    "line, the backward call that freed its graph, and the fix.",
    )
    p.add_argument("--version", action="version", version=f"autograd-doctor {TOOL_VERSION}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser(
        "run", help="run a script as python would, and diagnose autograd failures",
        description="Run SCRIPT (or -m MODULE) exactly as `python` would. When autograd "
                    "fails, print which tensor, where, why, and the fix.",
    )
    _add_output(run)
    run.add_argument("--fix", action="store_true",
                     help="apply the proposed fix to the source, then run again to verify it "
                          f"(up to {MAX_FIX_ROUNDS} rounds)")
    run.add_argument("-m", dest="module", metavar="MODULE", help="run a module, as python -m")
    run.add_argument("target", nargs="?", metavar="SCRIPT", help="the script to run")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")

    explain = sub.add_parser("explain", help="explain a root cause and show its example")
    explain.add_argument("category", nargs="?", default="",
                         help="a category such as carried-state (omit to list them)")

    show = sub.add_parser("show", help="re-render a saved JSON report")
    show.add_argument("report", help="a report written with --format json")
    _add_output(show)
    return p


def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("terminal", "json"), default=None,
                   help="report format (default: terminal, or from the --output suffix)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")


def parse(argv: list[str]) -> Options:
    ns = parser().parse_args(argv)
    if ns.command is None:
        parser().print_help(sys.stderr)
        raise SystemExit(EXIT_USAGE)
    fmt = getattr(ns, "format", None)
    output = getattr(ns, "output", None)
    if fmt is None:
        fmt = "json" if output and output.endswith(".json") else "terminal"
    options = Options(ns.command, format=fmt, output=output)
    if ns.command == "run":
        if ns.module:
            options.target, options.module = ns.module, True
            options.args = ([ns.target] if ns.target else []) + list(ns.args)
        elif ns.target:
            options.target, options.args = ns.target, list(ns.args)
        else:
            parser().error("run needs a SCRIPT or -m MODULE")
        options.fix = ns.fix
    elif ns.command == "explain":
        options.category = ns.category
    elif ns.command == "show":
        options.report = ns.report
    return options


def main(argv: list[str] | None = None) -> int:
    options = parse(sys.argv[1:] if argv is None else argv)
    try:
        if options.command == "run":
            return run(options)
        if options.command == "explain":
            return explain(options)
        return show(options)
    except Exception as exc:  # noqa: BLE001 - our own bug: one line, never the user's traceback
        print(f"autograd-doctor: internal error ({type(exc).__name__}: {exc}); "
              "this is an autograd-doctor problem, please report it", file=sys.stderr)
        return EXIT_INTERNAL if options.outcome_code is None else options.outcome_code


def emit(report: Report, options: Options) -> None:
    from autograd_doctor.render import render

    text = render(report, options.format)
    if options.output:
        with open(options.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    elif options.format == "json":
        sys.stdout.flush()
        sys.stdout.write(text)
    else:
        sys.stdout.flush()
        sys.stderr.write(text)


def run(options: Options) -> int:
    if not options.module and not os.path.isfile(options.target):
        report = Report("run", "error", EXIT_USAGE, reason=f"can't open file "
                        f"{os.path.abspath(options.target)!r}: no such file", target=options.target)
        emit(report, options)
        return EXIT_USAGE
    from autograd_doctor import doctor, runner

    report, outcome = doctor.run(options.target, options.args, options.module)
    options.outcome_code = report.exit_code
    error = outcome.error
    if error is not None and report.original_error is None:
        sys.stderr.write(outcome.traceback)  # not an autograd error: fail exactly as python
        if options.format == "terminal" and not options.output:
            return report.exit_code
    emit(report, options)
    if error is not None and report.original_error is not None:
        sys.stderr.write("\n" + runner.format_error(error, limit_to_user=True))
    if options.fix and report.status == "diagnosed":
        return fix_and_verify(options, report)
    return report.exit_code


def fix_and_verify(options: Options, report: Report) -> int:
    """Apply each finding's fix, run again in a fresh interpreter, repeat while it helps."""
    from autograd_doctor.edits.apply import FixError

    for round_number in range(1, MAX_FIX_ROUNDS + 1):
        fixes = [f.fix for f in report.findings if f.fix is not None]
        if not fixes:
            print("autograd-doctor: no fix to apply", file=sys.stderr)
            return 1
        try:
            files = _write(*fixes)
        except FixError as exc:
            print(f"autograd-doctor: could not apply the fix: {exc}", file=sys.stderr)
            return 1
        strategies = ", ".join(f.strategy for f in fixes)
        print(f"autograd-doctor: applied {strategies} to {', '.join(files)}", file=sys.stderr)
        print(f"autograd-doctor: verifying (run {round_number + 1}) ...", file=sys.stderr)
        report = _rerun(options)
        if report.status == "clean" and report.exit_code == 0:
            print("autograd-doctor: verified: the fixed script ran to completion with no "
                  "findings", file=sys.stderr)
            return 0
        if report.status != "diagnosed":
            print(f"autograd-doctor: the fixed script still fails (exit {report.exit_code})",
                  file=sys.stderr)
            return report.exit_code or 1
    return 1


def _write(*fixes: Fix) -> list[str]:
    """Apply fixes to the user's files. Returns the files written."""
    from autograd_doctor.edits.apply import apply

    contents = apply(*fixes)
    for file, text in contents.items():
        with open(file, "w", encoding="utf-8") as handle:
            handle.write(text)
    return sorted(contents)


def _rerun(options: Options) -> Report:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        cmd = [sys.executable, "-m", "autograd_doctor", "run", "--format", "json", "-o", out]
        cmd += ["-m", options.target] if options.module else [options.target]
        cmd += options.args
        subprocess.run(cmd, check=False)
        with open(out, encoding="utf-8") as handle:
            report = Report.from_dict(json.load(handle))
    from autograd_doctor.render import render

    sys.stderr.write(render(report, "terminal"))
    return report


def explain(options: Options) -> int:
    from autograd_doctor.diagnosis import causes, families, family_of

    if not options.category:
        for fam in families():
            print(f"{fam.error}: {fam.title}")
            for module in causes(fam.error):
                summary = (module.__doc__ or "").strip().splitlines()[0]
                print(f"  {module.CATEGORY:<26} {summary}")
        return 0
    chosen = [f for f in families() if f.error == options.category]
    if chosen:
        print(chosen[0].doc)
        print("\ncauses: " + ", ".join(m.CATEGORY for m in causes(chosen[0].error)))
        return 0
    modules = [m for m in causes() if m.CATEGORY == options.category]
    if not modules:
        known = sorted({m.CATEGORY for m in causes()} | {f.error for f in families()})
        print(f"autograd-doctor: unknown category {options.category!r}; "
              f"known: {', '.join(known)}", file=sys.stderr)
        return EXIT_USAGE
    for i, module in enumerate(modules):
        if i:
            print()
        print(f"[{family_of(module).error}: {module.CATEGORY}]")
        print((module.__doc__ or "").strip())
        for title, text in (("broken", getattr(module, "BROKEN", "")),
                            ("fixed", getattr(module, "FIXED", ""))):
            if text:
                print(f"\n--- {title} ---\n{text.rstrip()}")
    return 0


def show(options: Options) -> int:
    try:
        with open(options.report, encoding="utf-8") as handle:
            report = Report.from_dict(json.load(handle))
    except (OSError, ValueError, KeyError) as exc:
        print(f"autograd-doctor: can't read report {options.report!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    report = replace(report, command="show")
    emit(report, options)
    return 0
