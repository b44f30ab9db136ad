"""autograd-doctor: names the tensor, the line and the fix when PyTorch autograd fails.

In-process use::

    import autograd_doctor
    autograd_doctor.install()          # or: with autograd_doctor.watch(): ...

The user's RuntimeError still reaches their code unchanged (same type, PyTorch's text),
with the diagnosis attached as exception notes. Importing this package imports no torch.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from autograd_doctor.findings import TOOL_VERSION, Finding, Report

if TYPE_CHECKING:
    from autograd_doctor.doctor import Doctor

__version__ = TOOL_VERSION
__all__ = ["AutogradDoctorWarning", "Finding", "Report", "__version__", "findings", "install",
           "uninstall", "watch"]


class AutogradDoctorWarning(UserWarning):
    """A silent problem found while the program runs on (no gradient, a growing graph)."""

_current: Doctor | None = None


def install(notes: bool = True) -> Doctor:
    """Start watching autograd in this process (idempotent). Returns the Doctor."""
    global _current
    if _current is None:
        from autograd_doctor.doctor import Doctor

        _current = Doctor(notes=notes).install()
    return _current


def uninstall() -> None:
    """Stop watching and restore torch's own entry points."""
    global _current
    if _current is not None:
        _current.uninstall()
        _current = None


@contextmanager
def watch(notes: bool = True) -> Iterator[Doctor]:
    """`with watch():` installs the doctor for the block and removes it afterwards."""
    was_installed = _current is not None
    doctor = install(notes=notes)
    try:
        yield doctor
    except BaseException as exc:
        doctor.examine(exc)  # errors raised outside backward (saved-tensor reads)
        raise
    finally:
        if not was_installed:
            uninstall()


def findings() -> list[Finding]:
    """What the installed doctor has found so far in this process."""
    return list(_current.findings) if _current is not None else []
