"""Runs a script or module the way `python` would: `__main__`, `sys.argv`, `sys.path[0]`,
the script's own output, `sys.exit` codes, and Python's traceback for uncaught errors.
"""

from __future__ import annotations

import builtins
import importlib.machinery
import io
import os
import runpy
import sys
import traceback
import types
from dataclasses import dataclass
from types import TracebackType

_OWN_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
SIGINT_EXIT = 130


@dataclass
class Outcome:
    exit_code: int
    error: BaseException | None = None  # uncaught exception other than SystemExit
    traceback: str = ""  # as Python would print it, without our frames


def run(target: str, args: list[str], module: bool = False) -> Outcome:
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [target, *args]
    if module:
        sys.path[0:1] = [os.getcwd()]
    else:
        sys.path[0:1] = [os.path.dirname(os.path.abspath(target))]
    try:
        if module:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        elif os.path.isfile(target):
            _run_file(target)
        else:  # a directory or zip with __main__.py
            runpy.run_path(target, run_name="__main__")
    except SystemExit as exc:
        return Outcome(_exit_code(exc))
    except KeyboardInterrupt as exc:
        return Outcome(SIGINT_EXIT, exc, format_error(exc))
    except BaseException as exc:  # noqa: BLE001 - the user's program failed; report as Python does
        return Outcome(1, exc, format_error(exc))
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path
    return Outcome(0)


_mains: list[types.ModuleType] = []  # keep each script's globals alive until exit, as python


def release_scripts() -> None:
    """Let the globals of scripts run so far go (a test suite runs many in one process)."""
    _mains.clear()


def _run_file(target: str) -> None:
    """What `python target` does: a fresh `__main__` with an absolute `__file__`, and
    `sys.argv[0]` left as typed (runpy.run_path would overwrite it)."""
    path = os.path.abspath(target)
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None  # type: ignore[attr-defined]
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    _mains.append(main)
    with io.open_code(path) as handle:
        code = compile(handle.read(), path, "exec", dont_inherit=True)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def _exit_code(exc: SystemExit) -> int:
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def user_traceback(tb: TracebackType | None) -> TracebackType | None:
    """Drop the leading frames that belong to this package and runpy, and our wrappers
    around torch's backward further in: what is left is the traceback python shows."""
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not (name.startswith(_OWN_DIR) or "runpy" in os.path.basename(name)):
            break
        tb = tb.tb_next
    kept = tb
    while kept is not None:
        after = kept.tb_next
        while after is not None and after.tb_frame.f_code.co_filename.startswith(_OWN_DIR):
            after = after.tb_next
        kept.tb_next = after  # writable since Python 3.7
        kept = after
    return tb


def format_error(exc: BaseException, limit_to_user: bool = False) -> str:
    tb = user_traceback(exc.__traceback__)
    if limit_to_user:
        return _short(exc, tb)
    return "".join(traceback.format_exception(type(exc), exc, tb))


def _short(exc: BaseException, tb: TracebackType | None) -> str:
    """The traceback with torch's internal frames left out (what the user wrote only)."""
    from autograd_doctor.capture.frames import is_user_file

    frames = [f for f in traceback.extract_tb(tb) if is_user_file(f.filename)]
    lines = ["Traceback (most recent call last, torch internals omitted):\n"]
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)
