"""Score `autograd-doctor lint` on a split of the corpus: zero findings on correct programs,
and on broken ones the rule for the expected category at the culprit's line.

usage: python -m tests.corpus.lint_score [tuned|heldout] [--cases]

A case is in reach of a static reader when some rule predicts its category (`reachable`);
the figures say how many of those lint finds at the right line, and how many of all. The
held-out split prints figures only (`--cases` lists the tuned split's misses).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from autograd_doctor.lint.engine import Problem, lint_text
from autograd_doctor.lint.rules import rules

ROOT = Path(__file__).parent
SPLITS = {"tuned": ROOT, "heldout": ROOT / "heldout"}


def lint_case(case: Path) -> list[Problem]:
    found: list[Problem] = []
    for file in sorted(case.rglob("*.py")):
        if "fixed" in file.relative_to(case).parts:
            continue
        found += [replace(p, path=str(file.relative_to(case)))
                  for p in lint_text(str(file), file.read_bytes())]
    return found


def _fits(wanted: Any, got: Any) -> bool:
    return got in wanted if isinstance(wanted, list) else got == wanted


def predicted() -> set[tuple[str, str]]:
    return {(r.ERROR, r.CATEGORY) for r in rules()}


def score_case(case: Path) -> list[dict[str, Any]]:
    data = json.loads((case / "expected.json").read_text())
    wanted = data["findings"] if "findings" in data else [data["finding"]]
    found = lint_case(case)
    reach = predicted()
    rows = []
    for want in wanted:
        cats = want["category"] if isinstance(want["category"], list) else [want["category"]]
        culprit = want.get("culprit") or {}
        same = [p for p in found if p.error == want["error"] and p.category in cats]
        rows.append({
            "case": case.name, "error": want["error"],
            "reachable": any((want["error"], c) in reach for c in cats),
            "rule": bool(same),
            "line": any(_fits(culprit.get("line"), p.line) and _fits(culprit.get("file"), p.path)
                        for p in same),
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("split", nargs="?", default="tuned", choices=sorted(SPLITS))
    p.add_argument("--cases", action="store_true")
    ns = p.parse_args(argv)
    base = SPLITS[ns.split]
    rows = [r for case in sorted((base / "broken").iterdir()) for r in score_case(case)]
    alarms = [(c.name, p.rule, p.line) for c in sorted((base / "correct").iterdir())
              for p in lint_case(c)]
    by: Counter[str] = Counter()
    print(f"lint on the {ns.split} split: rule and line at the culprit")
    print(f"{'error':<22}{'cases':>6}{'reach':>6}{'rule':>6}{'line':>6}")
    for error in sorted({r["error"] for r in rows}) + ["all"]:
        mine = [r for r in rows if error in ("all", r["error"])]
        reach = [r for r in mine if r["reachable"]]
        by[error] = len(mine)
        print(f"{error:<22}{len(mine):>6}{len(reach):>6}{sum(r['rule'] for r in reach):>6}"
              f"{sum(r['line'] for r in reach):>6}")
    reach = [r for r in rows if r["reachable"]]
    share = sum(r["line"] for r in reach) / max(1, len(reach))
    print(f"right rule at the right line: {share:.0%} of {len(reach)} cases in reach, "
          f"{sum(r['line'] for r in rows) / max(1, len(rows)):.0%} of all {len(rows)}")
    rules_alarmed = Counter(rule for _, rule, _ in alarms)
    print(f"findings on {len(list((base / 'correct').iterdir()))} correct programs: "
          f"{len(alarms)}" + (f" (by rule: {', '.join(f'{r} {n}' for r, n in sorted(rules_alarmed.items()))})"
                              if alarms else ""))
    if ns.cases and ns.split != "heldout":
        for r in rows:
            if r["reachable"] and not r["line"]:
                print(f"  miss {r['case']} ({r['error']}): rule {r['rule']}")
        for alarm in alarms:
            print(f"  false alarm {alarm}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
