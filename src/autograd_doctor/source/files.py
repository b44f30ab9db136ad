"""Whose a file is: the user's (their scripts, notebook cells, the libraries they call), ours,
torch's or the standard library's. Torch-free: torch's folder is found without importing it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import sysconfig

_spec = importlib.util.find_spec("torch")
TORCH_DIR = (os.path.dirname(_spec.origin) + os.sep) if _spec and _spec.origin else "\0"
OWN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_PATHS = sysconfig.get_paths()
_STDLIB_DIRS = tuple(os.path.join(p, "") for p in {_PATHS["stdlib"], _PATHS["platstdlib"]})
_USER_FILE: dict[str, bool] = {}


def is_user_file(filename: str) -> bool:
    """Code the user runs: not torch, not autograd-doctor, not the standard library
    (installed packages count: a Lightning module's frames are part of the user's step)."""
    known = _USER_FILE.get(filename)
    if known is not None:
        return known
    if filename.startswith("<"):
        # <stdin>, <string>, IPython cells are the user's; <frozen runpy> is not.
        verdict = not filename.startswith("<frozen")
    else:
        path = os.path.abspath(filename)
        verdict = not (
            path.startswith(TORCH_DIR)
            or path.startswith(OWN_DIR)
            or (path.startswith(_STDLIB_DIRS) and "site-packages" not in path)
        )
    _USER_FILE[filename] = verdict
    return verdict


def is_project_file(filename: str) -> bool:
    """The user's own code: not torch, not ours, not the standard library nor an installed
    package (where a cache in a helper module of their project lives)."""
    return is_user_file(filename) and not filename.startswith("<") and not any(
        part in filename for part in ("site-packages", "dist-packages"))


def is_own_file(filename: str) -> bool:
    return filename.startswith(OWN_DIR)


def project_files() -> list[str]:
    """The user's own modules that are loaded (where a helper class or function lives)."""
    found = (getattr(m, "__file__", None) for m in list(sys.modules.values()))
    return sorted({f for f in found if f and is_project_file(f)})
