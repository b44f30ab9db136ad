"""A scratch copy of the user's project, so that running their script again (a replay, a
candidate fix) never writes into their files: checkpoints, logs and outputs land in the copy.

Small files are copied; big ones (datasets) are linked, read-only by convention: a script
that writes into a big file it also reads is the one case a copy does not protect. Caches,
virtual environments and version-control folders are left out.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "env",
                       "node_modules", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox",
                       ".ipynb_checkpoints", "wandb", "mlruns", "lightning_logs"})
COPY_BYTES = 8 << 20  # files up to this size are copied, bigger ones linked
TOTAL_BYTES = 256 << 20
MAX_FILES = 20_000


@dataclass(frozen=True)
class Scratch:
    original: Path  # the user's project root
    copy: Path  # where it was copied
    cwd: Path  # the working directory to run in, inside the copy

    def inside(self, path: str) -> str:
        """A path of the user's as it is in the copy."""
        p = Path(path)
        if p.is_absolute() and _within(p, self.original):
            return str(self.copy / p.relative_to(self.original))
        return path

    def inside_cwd(self, path: str) -> str:
        """A path as the user's code or report names it (relative to their working
        directory, or absolute), in the copy."""
        return self.inside(path) if Path(path).is_absolute() else str(self.cwd / path)

    def outside(self, path: str) -> str:
        """A path in the copy as it is in the user's project."""
        p = Path(path)
        if p.is_absolute() and _within(p, self.copy):
            return str(self.original / p.relative_to(self.copy))
        return path

    def remove(self) -> None:
        shutil.rmtree(self.copy.parent, ignore_errors=True)


def _within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def project_root(target: str, cwd: Path) -> Path:
    """The folder to copy: the working directory when the script is under it (relative
    paths in the script resolve against it), else the script's own folder."""
    script = Path(target).resolve()
    return cwd if _within(script, cwd) else script.parent


def make(target: str, cwd: Path | None = None) -> Scratch:
    cwd = (cwd or Path.cwd()).resolve()
    root = project_root(target, cwd)
    base = Path(tempfile.mkdtemp(prefix="autograd-doctor-"))
    copy = base / root.name
    copied, total = 0, 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        here = Path(folder)
        dest = copy / here.relative_to(root)
        dest.mkdir(parents=True, exist_ok=True)
        for name in sorted(files):
            source = here / name
            size = source.stat().st_size if source.exists() else 0
            if copied < MAX_FILES and size <= COPY_BYTES and total + size <= TOTAL_BYTES \
                    and not source.is_symlink():
                shutil.copy2(source, dest / name)
                copied, total = copied + 1, total + size
            elif source.exists():
                os.symlink(source.resolve(), dest / name)
    run_in = copy / cwd.relative_to(root) if _within(cwd, root) else copy
    return Scratch(root, copy, run_in)
