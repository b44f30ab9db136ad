"""Check a corpus case with plain PyTorch (no autograd-doctor involved): what the broken
script does under `python`, and whether the hand-fixed version trains.

usage: python tests/corpus/check_case.py CASE_DIR [CASE_DIR ...]

For each case it prints one line: the broken script's outcome (the PyTorch error it dies
of, or `ran`), then the fixed version's outcome and the trainable parameters (by shape) that
never received a non-zero gradient before an optimizer step. A good broken case dies of the
error its expected.json names (or, for silent problems, runs); a good fixed version runs with
exit 0 and no parameter left without a gradient. Correct cases (no expected finding) must
run with exit 0. Exit code: 0 when every case is consistent, 1 otherwise.
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PATTERNS = {
    "Trying to backward through the graph a second time": "backward-twice",
    "modified by an inplace operation": "inplace-modified",
    "does not require grad and does not have a grad_fn": "no-grad-fn",
}
SILENT = ("silent-no-grad", "graph-growth")
TIMEOUT = 120


def _record_and_run(script: str, args: list[str], summary: str) -> None:
    """Runs in a child interpreter: the script as `python` would, with an optimizer hook."""
    from torch.optim.optimizer import register_optimizer_step_pre_hook

    seen: dict[int, bool] = {}
    shapes: dict[int, list[int]] = {}

    def record(optimizer, _args, _kwargs):  # type: ignore[no-untyped-def]
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.requires_grad:
                    got = p.grad is not None and bool(p.grad.ne(0).any())
                    seen[id(p)] = seen.get(id(p), False) or got
                    shapes[id(p)] = list(p.shape)

    register_optimizer_step_pre_hook(record)
    sys.argv = [script, *args]
    sys.path.insert(0, os.getcwd())
    code, error = 0, ""
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # noqa: BLE001 - we report what the script died of
        code, error = 1, f"{type(exc).__name__}: {exc}"
    Path(summary).write_text(json.dumps({
        "exit_code": code, "error": error, "params": len(seen),
        "without_grad": [shapes[k] for k, v in seen.items() if not v]}))


def run(work: Path, args: list[str]) -> dict[str, object]:
    summary = work / "_summary.json"
    subprocess.run([sys.executable, __file__, "--child", str(summary), "train.py", *args],
                   cwd=work, capture_output=True, text=True, timeout=TIMEOUT)
    return json.loads(summary.read_text()) if summary.exists() else {"exit_code": -1,
                                                                     "error": "no summary"}


def kind_of(error: str) -> str:
    return next((kind for text, kind in PATTERNS.items() if text in error), "other")


def check(case: Path) -> bool:
    args = (case / "args").read_text().split() if (case / "args").exists() else []
    expected_file = case / "expected.json"
    expected = json.loads(expected_file.read_text()) if expected_file.exists() else {}
    wanted = [f["error"] for f in expected.get("findings", [expected.get("finding")]) if f]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / case.name
        shutil.copytree(case, work, ignore=shutil.ignore_patterns("fixed", "__pycache__"))
        broken = run(work, args)
        error = str(broken.get("error", ""))
        outcome = kind_of(error) if error else "ran"
        ok = True
        if not wanted:  # a correct program
            ok = broken["exit_code"] == 0 and not broken.get("without_grad")
            print(f"{case.name}: correct program: exit {broken['exit_code']}, params without "
                  f"gradient {broken.get('without_grad')} {'OK' if ok else 'PROBLEM'}")
            return ok
        loud = [w for w in wanted if w not in SILENT]
        if loud:
            ok = outcome in loud or (outcome == "backward-twice" and "saved-tensor-access" in loud)
        else:
            ok = outcome == "ran"
        if (case / "fixed").is_dir():
            for file in (case / "fixed").rglob("*.py"):
                target = work / file.relative_to(case / "fixed")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(file, target)
            fixed = run(work, args)
            fixed_ok = fixed["exit_code"] == 0 and fixed.get("params", 0) and not fixed.get(
                "without_grad")
        else:
            fixed, fixed_ok = {"exit_code": "-", "error": "no fixed/ folder"}, False
        ok = ok and bool(fixed_ok)
        print(f"{case.name}: broken -> {outcome} ({error[:80]}); expected {wanted}; fixed -> "
              f"exit {fixed['exit_code']} {fixed.get('error', '')[:60]} params without gradient "
              f"{fixed.get('without_grad')} {'OK' if ok else 'PROBLEM'}")
        return ok


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _record_and_run(sys.argv[3], sys.argv[4:], sys.argv[2])
        raise SystemExit(0)
    results = [check(Path(p).resolve()) for p in sys.argv[1:]]
    raise SystemExit(0 if all(results) else 1)
