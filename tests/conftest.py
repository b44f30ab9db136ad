"""Every test must leave torch as it found it: no doctor installed, original entry points."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def torch_is_left_alone() -> Iterator[None]:
    from autograd_doctor.capture import hooks

    assert hooks.originals_restored() and not hooks.is_installed()
    yield
    restored = hooks.originals_restored() and not hooks.is_installed()
    if not restored:
        import autograd_doctor

        autograd_doctor.uninstall()
        active = hooks.active()
        if active is not None:
            active.uninstall()
    assert restored, "a test left autograd-doctor installed"


@pytest.fixture
def children_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replays and verification runs in the test process (see support.runs)."""
    from tests.support.runs import child_in_process

    monkeypatch.setattr("autograd_doctor.verify.runs.run_child", child_in_process)
