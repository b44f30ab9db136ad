"""Data flows one way: a module imports only from layers before it; the torch-free layers
(findings, source, edits, render, the diagnosis registry, lint) import no torch."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "src" / "autograd_doctor"
ORDER = ["findings", "boundary", "source", "edits", "graph", "capture", "diagnosis", "lint",
         "report_format", "render", "runner", "doctor", "verify", "integrations"]
TORCH_FREE = ["autograd_doctor", "autograd_doctor.findings", "autograd_doctor.boundary",
              "autograd_doctor.source.reading", "autograd_doctor.source.places",
              "autograd_doctor.source.files", "autograd_doctor.verify.scratch",
              "autograd_doctor.source.patterns", "autograd_doctor.edits.operations",
              "autograd_doctor.edits.forms", "autograd_doctor.edits.strategies",
              "autograd_doctor.edits.apply", "autograd_doctor.render",
              "autograd_doctor.diagnosis", "autograd_doctor.diagnosis.finding",
              # lint reads source only: linting a repository must not pay torch's import.
              "autograd_doctor.lint.engine", "autograd_doctor.lint.rules",
              "autograd_doctor.lint.autofix", "autograd_doctor.render.to_sarif",
              "autograd_doctor.integrations.lint_command"]


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
    return found


def test_no_layer_imports_a_later_one() -> None:
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        own = layer("autograd_doctor." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        if own not in ORDER:
            continue
        for name in imports(path):
            if name.startswith("autograd_doctor.") and layer(name) in ORDER:
                if ORDER.index(layer(name)) > ORDER.index(own):
                    wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert wrong == []


def test_causes_import_no_other_cause() -> None:
    diagnosis = PACKAGE / "diagnosis"
    causes = {f"autograd_doctor.diagnosis.{p.parent.name}.{p.stem}"
              for p in diagnosis.glob("*/*.py") if p.stem not in ("__init__", "evidence")}
    wrong = [f"{path.relative_to(PACKAGE)} imports {name}"
             for path in diagnosis.glob("*/*.py") for name in imports(path) if name in causes]
    assert wrong == []


def test_torch_free_layers_import_no_torch_in_a_fresh_interpreter() -> None:
    code = ("import sys\n" + "".join(f"import {m}\n" for m in TORCH_FREE)
            + "from autograd_doctor import diagnosis\n"
            + "assert len(diagnosis.families()) == 6, diagnosis.families()\n"
            + "print(sorted(m for m in sys.modules if m.split('.')[0] == 'torch'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
