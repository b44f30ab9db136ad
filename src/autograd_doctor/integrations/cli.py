"""`autograd-doctor`: argv -> Options -> the library -> output and exit code.

Exit codes: the script's own code when it ran (1 when it died of an autograd error the
doctor diagnosed, as under python); 1 when it finished but a finding was reported; 2 for
bad arguments or a missing script; 3 when autograd-doctor itself failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from autograd_doctor.findings import TOOL_VERSION, Report

if TYPE_CHECKING:
    from autograd_doctor.integrations.lint_command import LintOptions
    from autograd_doctor.verify.fixes import Change

EXIT_USAGE = 2
EXIT_INTERNAL = 3
VERIFY_SECONDS = 120.0
REPLAY_SECONDS = 120.0  # at least; five times the first run's time when that is longer


@dataclass
class Options:
    command: str
    target: str = ""
    args: list[str] = field(default_factory=list)
    module: bool = False
    format: str = "terminal"
    output: str | None = None
    fix: bool = False
    replay: bool = True
    verify: bool = True
    verify_budget: float = 120.0
    category: str = ""
    report: str = ""
    lint: LintOptions | None = None
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
    run.add_argument("--no-replay", dest="replay", action="store_false",
                     help="keep the first run's diagnosis: do not run the script again under "
                          "full tracing after a failure")
    run.add_argument("--no-verify", dest="verify", action="store_false",
                     help="show fixes without trying them first in a scratch copy")
    run.add_argument("--verify-budget", type=float, default=VERIFY_SECONDS, metavar="SECONDS",
                     help=f"time for trying fixes (default {VERIFY_SECONDS:.0f} s)")
    run.add_argument("--fix", action="store_true",
                     help="write the fix into your files, only when it was verified (your "
                          "files are left as they were otherwise)")
    run.add_argument("-m", dest="module", metavar="MODULE", help="run a module, as python -m")
    run.add_argument("target", nargs="?", metavar="SCRIPT", help="the script to run")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")

    explain = sub.add_parser("explain", help="explain a root cause and show its example")
    explain.add_argument("category", nargs="?", default="",
                         help="a category such as carried-state (omit to list them)")

    lint = sub.add_parser(
        "lint", help="find graph-lifetime bugs in source, before it runs",
        description="Read Python files (folders are walked; .gitignore and the "
                    "[tool.autograd-doctor] table of pyproject.toml are honoured) and report "
                    "code that will fail or misbehave in autograd. Exit codes: 0 nothing "
                    "found, 1 findings, 2 usage or internal error.")
    lint.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    lint.add_argument("--format", choices=("text", "json", "sarif"), default="text",
                      help="text (path:line:col: RULE message), json, or sarif (SARIF 2.1.0)")
    lint.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    lint.add_argument("--select", metavar="RULES", help="only these rules or prefixes "
                      "(comma-separated, e.g. AGD101,AGD11)")
    lint.add_argument("--ignore", metavar="RULES", help="skip these rules or prefixes")
    lint.add_argument("--fix", action="store_true",
                      help="apply the safe fixes in place (they never change what a correct "
                           "program computes)")
    lint.add_argument("--unsafe-fixes", action="store_true",
                      help="with --fix or --diff, also apply the suggested fixes, which "
                           "change what the program computes")
    lint.add_argument("--diff", action="store_true",
                      help="print the fixes as a diff instead of writing them")
    lint.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                      help="files linted in parallel (default: one process per core)")

    rule = sub.add_parser("rule", help="print a lint rule's documentation and examples")
    rule.add_argument("code", nargs="?", default="", help="a rule code such as AGD101 "
                      "(omit to list the rules)")

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
    fmt = getattr(ns, "format", None) if ns.command not in ("lint", "rule") else "terminal"
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
        options.replay = ns.replay
        options.verify = ns.verify
        options.verify_budget = ns.verify_budget
    elif ns.command == "explain":
        options.category = ns.category
    elif ns.command == "lint":
        from autograd_doctor.integrations.lint_command import LintOptions

        def codes(raw: str | None) -> frozenset[str] | None:
            return frozenset(c.strip().upper() for c in raw.split(",") if c.strip()) \
                if raw else None

        options.lint = LintOptions(tuple(ns.paths), ns.format, codes(ns.select),
                                   codes(ns.ignore) or frozenset(), ns.fix, ns.unsafe_fixes,
                                   ns.diff, ns.jobs, ns.output)
    elif ns.command == "rule":
        options.category = ns.code
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
        if options.command == "lint" and options.lint is not None:
            from autograd_doctor.integrations.lint_command import lint_command

            return lint_command(options.lint)
        if options.command == "rule":
            return rule_doc(options.category)
        return show(options)
    except BrokenPipeError:
        # The reader went away (`autograd-doctor rule AGD101 | head`): not our error. Point
        # stdout at nothing so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
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
    from autograd_doctor.verify.fixes import Baseline, verify
    from autograd_doctor.verify.replay import replay

    started = time.perf_counter()
    report, outcome, first = doctor.run_with_doctor(options.target, options.args,
                                                    options.module)
    options.outcome_code = report.exit_code
    baseline = Baseline(first.gradients.received(), first.capture.ledger.steps)
    if options.replay and report.status in ("diagnosed", "undiagnosed") \
            and report.reason != doctor.UNKNOWN_ERROR:  # a replay knows no more error kinds
        print("autograd-doctor: running the script again under full tracing to place the "
              "cause exactly (--no-replay skips this)", file=sys.stderr)
        budget = max(REPLAY_SECONDS, 5 * (time.perf_counter() - started))
        report = replay(report, options.target, options.args, options.module, budget)
    change: Change | None = None
    if options.verify and any(f.fix for f in report.findings):
        print("autograd-doctor: trying the fix in a scratch copy of your files before showing "
              "it (--no-verify skips this)", file=sys.stderr)
        report, change = verify(report, options.target, options.args, options.module,
                                baseline, options.verify_budget)
    report = _in_order(report)
    error = outcome.error
    if error is not None and report.original_error is None:
        sys.stderr.write(outcome.traceback)  # not an autograd error: fail exactly as python
        if options.format == "terminal" and not options.output:
            return report.exit_code
    emit(report, options)
    if error is not None and report.original_error is not None:
        sys.stderr.write("\n" + runner.format_error(error, limit_to_user=True))
    if options.fix and report.status == "diagnosed":
        return write_fix(change)
    return report.exit_code


def _in_order(report: Report) -> Report:
    """Diffs a reader can apply one after the other, in the order the findings are shown."""
    from autograd_doctor.edits.apply import chained

    fixed = [f for f in report.findings if f.fix is not None]
    if len(fixed) < 2:
        return report
    diffs = iter(chained([f.fix for f in fixed if f.fix is not None]))
    return replace(report, findings=tuple(replace(f, fix=next(diffs)) if f.fix else f
                                          for f in report.findings))


def write_fix(change: Change | None) -> int:
    """--fix: write the verified change, or nothing. Every file is checked against what was
    verified first; if writing one fails, every file written is put back."""
    if change is None or not change.after:
        print("autograd-doctor: no verified fix to apply; your files are unchanged",
              file=sys.stderr)
        return 1
    current: dict[str, str] = {}
    for file in change.after:
        try:
            with open(file, encoding="utf-8") as handle:
                current[file] = handle.read()
        except OSError as exc:
            print(f"autograd-doctor: can't read {file} ({exc}); your files are unchanged",
                  file=sys.stderr)
            return 1
        if current[file] != change.before[file]:
            print(f"autograd-doctor: {file} changed since the run; nothing was written (run "
                  f"again to get a fix for it as it is now)", file=sys.stderr)
            return 1
    written: list[str] = []
    try:
        for file, text in change.after.items():
            with open(file, "w", encoding="utf-8") as handle:
                handle.write(text)
            written.append(file)
    except OSError as exc:
        for file in written:
            with open(file, "w", encoding="utf-8") as handle:
                handle.write(current[file])
        print(f"autograd-doctor: could not write {exc.filename} ({exc.strerror}); every file "
              f"was put back as it was", file=sys.stderr)
        return 1
    print(f"autograd-doctor: applied the verified fix to {', '.join(sorted(written))}",
          file=sys.stderr)
    return 0


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


def rule_doc(code: str) -> int:
    from autograd_doctor.lint.rules import examples, rule, rules, summary

    if not code:
        for module in rules():
            print(f"{module.CODE}  {module.ERROR + '/' + module.CATEGORY:<40} "
                  f"{summary(module)}")
        return 0
    chosen = rule(code)
    if chosen is None:
        print(f"autograd-doctor: unknown rule {code!r}; `autograd-doctor rule` lists them",
              file=sys.stderr)
        return EXIT_USAGE
    module = chosen
    print(f"{module.CODE} ({module.NAME}) predicts {module.ERROR}: {module.CATEGORY}\n")
    print((module.__doc__ or "").strip())
    bad, good = examples(module)
    for title, texts in (("bad", bad), ("good", good)):
        for text in texts[:1]:
            print(f"\n--- {title} ---\n{text.strip()}")
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
