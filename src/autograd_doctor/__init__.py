"""autograd-doctor: names the tensor, the line and the fix when PyTorch autograd fails.

In-process use::

    import autograd_doctor
    autograd_doctor.install()          # or: with autograd_doctor.watch(): ...
    autograd_doctor.replay(train)      # run train() again under full tracing: exact findings

The user's RuntimeError still reaches their code unchanged (same type, PyTorch's text),
with the diagnosis attached as exception notes. Importing this package imports no torch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from autograd_doctor.findings import TOOL_VERSION, Finding, Report

if TYPE_CHECKING:
    from autograd_doctor.doctor import Doctor

__version__ = TOOL_VERSION
__all__ = ["AutogradDoctorWarning", "Finding", "Report", "__version__", "findings", "install",
           "replay", "uninstall", "watch"]


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


def replay(fn: Callable[..., object], *args: object, **kwargs: object) -> list[Finding]:
    """Call `fn(*args, **kwargs)` under full tracing (every in-place write, where each tensor
    was made, every way out of autograd) and return what was found, diagnosed from those
    facts. For a notebook cell or a `train()` that failed under `install()`: the callable
    must rebuild what it trains, as a script run again would. Its exception is diagnosed,
    not raised; an installed doctor is paused meanwhile and keeps its own record."""
    from autograd_doctor.doctor import Doctor

    paused = _current
    if paused is not None:
        paused.capture.uninstall()
    doctor = Doctor(notes=False, announce=None, trace=True).install()
    try:
        fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the failure being replayed is the point
        doctor.examine(exc)
    finally:
        doctor.uninstall()
        if paused is not None:
            paused.capture.install()
    return list(doctor.findings)
