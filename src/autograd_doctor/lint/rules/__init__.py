"""The lint rules: one module per rule, found by listing this package.

A rule module declares CODE (`AGD101`), NAME (a short slug), ERROR and CATEGORY (the runtime
family and cause it predicts, so that lint and `run` speak the same ids), a docstring in four
parts (what it finds, why it breaks training, the fix; the first line is its summary), BAD and
GOOD examples (each a whole program; the tests lint every one) and `check(facts)`, which
yields Hits.
"""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from autograd_doctor.lint.facts import FileFacts


@dataclass(frozen=True)
class Edit:
    """One change in the source: replace the node's text, insert a statement before a
    statement, or drop a keyword argument from a call. Positions are the node's own."""

    kind: str  # "replace" | "replace-statement" | "insert-before" | "delete" | "drop-keyword"
    node: ast.AST
    text: str = ""  # the new text (replace, insert-before) or the keyword (drop-keyword)


@dataclass(frozen=True)
class Suggestion:
    strategy: str  # a fix strategy id of the runtime report (edits.strategies)
    description: str
    edits: tuple[Edit, ...]
    # Applied by `lint --fix` only when it cannot change what a correct program computes.
    safe: bool = False


@dataclass(frozen=True)
class Hit:
    node: ast.AST  # where the finding is reported (line and column)
    message: str
    culprit: str  # the expression as written
    fix: Suggestion | None = None


Check = Iterator[Hit]


@functools.cache
def rules() -> tuple[ModuleType, ...]:
    found = [importlib.import_module(f"{__name__}.{info.name}")
             for info in pkgutil.iter_modules(__path__) if info.name.startswith("agd")]
    return tuple(sorted(found, key=lambda m: m.CODE))


def rule(code: str) -> ModuleType | None:
    return next((r for r in rules() if r.CODE == code.upper()), None)


def summary(module: ModuleType) -> str:
    """The first paragraph of a rule's documentation, on one line."""
    return " ".join((module.__doc__ or "").strip().split("\n\n")[0].split()).rstrip(".")


def table_row(module: ModuleType) -> str:
    """The rule's row in the README's rule table."""
    return f"| `{module.CODE}` | `{module.ERROR}`: `{module.CATEGORY}` | {summary(module)} |"


def run_rule(module: ModuleType, facts: FileFacts) -> list[Hit]:
    hits: list[Hit] = list(module.check(facts))
    return hits


def examples(module: ModuleType) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A rule's bad and good examples. The bad ones include the BROKEN example of the runtime
    cause the rule predicts, read from that cause's source (importing it would load torch)."""
    bad = tuple(module.BAD)
    if not getattr(module, "CAUSE_EXAMPLE", True):
        return bad, tuple(module.GOOD)
    broken = _cause_example(module.ERROR, module.CATEGORY)
    if broken and broken not in bad:
        bad += (broken,)
    return bad, tuple(module.GOOD)


def _cause_example(error: str, category: str) -> str:
    import autograd_doctor.diagnosis as diagnosis

    folder = Path(diagnosis.__file__).parent / error.replace("-", "_")
    for file in sorted(folder.glob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        values = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign)
                  for t in n.targets if isinstance(t, ast.Name)}
        found = values.get("CATEGORY")
        if isinstance(found, ast.Constant) and found.value == category:
            broken = values.get("BROKEN")
            return str(broken.value) if isinstance(broken, ast.Constant) else ""
    return ""
