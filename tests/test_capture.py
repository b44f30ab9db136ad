"""Capture shares torch with other tools and threads: another tool's wrapper installed after
ours survives our uninstall, and two threads training two models at once are each diagnosed
with their own culprit."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import torch
import torch.nn as nn

import autograd_doctor


def test_uninstall_keeps_a_wrapper_another_tool_installed_after_ours() -> None:
    original = torch.autograd.backward
    autograd_doctor.install()
    ours = torch.autograd.backward
    calls: list[int] = []

    def theirs(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return ours(*args, **kwargs)

    torch.autograd.backward = theirs
    autograd_doctor.uninstall()
    assert torch.autograd.backward is theirs  # not dropped, and it still works
    torch.ones(2, requires_grad=True).sum().backward()
    assert calls == [1]
    torch.autograd.backward = ours  # the other tool uninstalls, putting back what it found
    autograd_doctor.install()  # ours, left inactive underneath, is not wrapped twice
    autograd_doctor.uninstall()
    assert torch.autograd.backward is original


def sync(barrier: threading.Barrier) -> None:
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass  # the other thread has failed: go on alone


def two_losses(barrier: threading.Barrier) -> None:
    """Two losses over one trunk, no optimizer step of its own between the two calls (the
    other thread steps there)."""
    torch.manual_seed(1)
    trunk, head_a, head_b = nn.Linear(3, 5), nn.Linear(5, 1), nn.Linear(5, 1)
    opt = torch.optim.SGD([*trunk.parameters(), *head_a.parameters(),
                           *head_b.parameters()], lr=0.1)
    for _ in range(2):
        shared_a = torch.tanh(trunk(torch.randn(4, 3)))
        loss_a, loss_b = head_a(shared_a).mean(), head_b(shared_a).mean()
        opt.zero_grad()
        loss_a.backward()
        sync(barrier)
        sync(barrier)
        loss_b.backward()
        opt.step()


def carried(barrier: threading.Barrier) -> None:
    torch.manual_seed(2)
    lin = nn.Linear(4, 4)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    state_b = torch.zeros(2, 4)
    for _ in range(3):
        state_b = torch.tanh(lin(state_b) + 1)
        loss = state_b.sum()
        sync(barrier)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sync(barrier)


def test_two_threads_training_at_once_are_each_diagnosed() -> None:
    """Thread b's optimizer steps between thread a's two backward calls: thread a must not
    take that step for its own (it would then detach instead of summing the losses)."""
    barrier = threading.Barrier(2, timeout=30)
    caught: dict[str, BaseException] = {}

    def guarded(name: str, loop: Callable[[threading.Barrier], None]) -> None:
        try:
            loop(barrier)
        except RuntimeError as exc:
            caught[name] = exc
            barrier.abort()

    with autograd_doctor.watch():
        threads = [threading.Thread(target=guarded, args=(n, f))
                   for n, f in (("a", two_losses), ("b", carried))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    expected = {"a": ("shared-subgraph", "shared_a", "fix (sum-losses)"),
                "b": ("carried-state", "state_b", "fix (detach-at-boundary)")}
    for name, (category, culprit, fix) in expected.items():
        exc = caught.get(name)
        assert isinstance(exc, RuntimeError), caught
        notes = "\n".join(getattr(exc, "__notes__", []))
        assert f"[backward-twice: {category}]" in notes, notes
        assert f"culprit    {culprit} (local)" in notes, notes
        assert fix in notes, notes


def test_a_live_input_is_followed_to_its_own_record_only() -> None:
    """The replay's lineage is keyed by id(); a tensor alive now must not inherit the record
    of a dead temporary that had its address (a parameter made where a `.data` view was)."""
    import weakref

    from autograd_doctor.capture.tracer import Flow, Trace

    trace = Trace()
    dead = torch.zeros(2)
    key = id(dead)
    trace.flow[key] = [(weakref.ref(dead), Flow("data", (), (), None, 1))]
    del dead
    alive = torch.ones(2)  # never recorded as made by a call (a leaf)
    ref = weakref.ref(alive)
    assert trace.flow_of(key, before=5, ref=ref) is None
    assert trace.flow_of(key, before=5) is not None  # without a live ref: the old guess
    trace.flow[key].append((ref, Flow("mul", (), (), None, 3)))
    found = trace.flow_of(key, before=5, ref=ref)
    assert found is not None and found.op == "mul"
