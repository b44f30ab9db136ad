"""Which files `lint` reads: the paths given, folders walked for `*.py`, minus what
`.gitignore` files and the `[tool.autograd-doctor]` table of `pyproject.toml` exclude.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pathspec

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# Never worth walking into: caches, environments, VCS internals.
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".ruff_cache",
                          ".pytest_cache", ".tox", ".nox", ".venv", "venv", "node_modules",
                          "build", "dist", ".eggs"})


class ConfigError(Exception):
    """pyproject.toml has a [tool.autograd-doctor] table we cannot use."""


@dataclass(frozen=True)
class Config:
    select: frozenset[str] | None = None  # None: every rule
    ignore: frozenset[str] = frozenset()
    exclude: tuple[str, ...] = ()  # gitignore-style patterns, relative to `root`
    root: Path = field(default_factory=Path.cwd)


def load_config(start: Path) -> Config:
    """The nearest pyproject.toml at or above `start` with a [tool.autograd-doctor] table."""
    for folder in [start, *start.parents]:
        file = folder / "pyproject.toml"
        if not file.is_file():
            continue
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{file}: {exc}") from exc
        table = data.get("tool", {}).get("autograd-doctor")
        if table is None:
            continue
        return _config(file, table, folder)
    return Config()


def _config(file: Path, table: object, folder: Path) -> Config:
    if not isinstance(table, dict):
        raise ConfigError(f"{file}: [tool.autograd-doctor] must be a table")
    known = {"select", "ignore", "exclude"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{file}: unknown key(s) in [tool.autograd-doctor]: "
                          f"{', '.join(unknown)} (known: {', '.join(sorted(known))})")
    lists = {}
    for key in known:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{file}: [tool.autograd-doctor] {key} must be a list of strings")
        lists[key] = value
    return Config(frozenset(lists["select"]) if "select" in table else None,
                  frozenset(lists["ignore"]), tuple(lists["exclude"]), folder)


def python_files(paths: list[str], config: Config) -> list[Path]:
    """Files named on the command line are always read; folders are walked, honouring
    .gitignore files found on the way and the configured excludes."""
    exclude = pathspec.PathSpec.from_lines("gitwildmatch", config.exclude)
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            found.append(path)
            continue
        specs: dict[Path, list[tuple[Path, pathspec.PathSpec[Any]]]] = {}
        for folder, dirs, files in os.walk(path):
            here = Path(folder)
            ignored = specs.get(here.parent, []) + _own_gitignore(here)
            specs[here] = ignored
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not _excluded(
                here / d, config, exclude, ignored, True))
            found += [here / f for f in sorted(files) if f.endswith(".py") and not _excluded(
                here / f, config, exclude, ignored, False)]
    return found


def _own_gitignore(folder: Path) -> list[tuple[Path, pathspec.PathSpec[Any]]]:
    """The patterns of `folder`'s .gitignore, relative to it. Only .gitignore files at or
    below a folder named on the command line count: naming a folder means linting it, even
    one that a parent's .gitignore leaves out (as ruff does)."""
    own = folder / ".gitignore"
    if not own.is_file():
        return []
    try:
        lines = own.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    return [(folder.resolve(), pathspec.PathSpec.from_lines("gitwildmatch", lines))]


def _excluded(path: Path, config: Config, exclude: pathspec.PathSpec[Any],
              ignored: list[tuple[Path, pathspec.PathSpec[Any]]], is_dir: bool) -> bool:
    suffix = "/" if is_dir else ""
    absolute = path.resolve()
    try:
        relative = absolute.relative_to(config.root.resolve()).as_posix() + suffix
        if exclude.match_file(relative):
            return True
    except ValueError:
        pass
    for base, spec in ignored:
        try:
            if spec.match_file(absolute.relative_to(base).as_posix() + suffix):
                return True
        except ValueError:
            continue
    return False
