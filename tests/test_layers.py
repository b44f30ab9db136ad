"""Data flows one way: a module imports only from layers before it, and the lint-free core
(findings, render) never imports torch."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "src" / "autograd_doctor"
ORDER = ["findings", "graph", "capture", "diagnosis", "fixes", "render", "runner", "doctor",
         "integrations"]


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


def test_findings_and_renderers_do_not_import_torch() -> None:
    for path in [PACKAGE / "findings.py", *(PACKAGE / "render").glob("*.py")]:
        assert not any(n.split(".")[0] == "torch" for n in imports(path)), path
