"""install()/watch() inside a user's process: the error stays the user's, the diagnosis
rides along as notes, and a correct program computes exactly what it computed before."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
import torch
import torch.nn as nn

import autograd_doctor
from autograd_doctor.capture import hooks


def carried_rnn_loop(steps: int = 3) -> None:
    torch.manual_seed(0)
    rnn, head = nn.GRU(3, 5), nn.Linear(5, 1)
    opt = torch.optim.SGD([*rnn.parameters(), *head.parameters()], lr=0.1)
    h = torch.zeros(1, 2, 5)
    for _ in range(steps):
        out, h = rnn(torch.randn(4, 2, 3), h)
        loss = head(out).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def test_watch_keeps_the_users_error_and_adds_the_diagnosis_as_notes() -> None:
    with autograd_doctor.watch(), pytest.raises(RuntimeError) as info:
        carried_rnn_loop()
    assert type(info.value) is RuntimeError
    assert str(info.value).startswith("Trying to backward through the graph a second time")
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "carried-state" in notes and "culprit    h (local)" in notes
    assert "+        h = h.detach()" in notes
    assert hooks.originals_restored()


def test_install_and_uninstall_restore_torch() -> None:
    original = torch.autograd.backward
    doctor = autograd_doctor.install()
    assert autograd_doctor.install() is doctor  # idempotent
    assert torch.autograd.backward is not original
    autograd_doctor.uninstall()
    assert torch.autograd.backward is original and hooks.originals_restored()


def test_findings_are_kept_for_the_caller() -> None:
    with autograd_doctor.watch() as doctor:
        with pytest.raises(RuntimeError):
            carried_rnn_loop()
        assert [f.category for f in autograd_doctor.findings()] == ["carried-state"]
    assert doctor.findings[0].culprit is not None


def train_params(watch: bool) -> list[torch.Tensor]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with autograd_doctor.watch() if watch else _nothing():
        for _ in range(5):
            x = torch.randn(8, 6)
            loss = model(x).square().mean()
            opt.zero_grad()
            loss.backward()
            xg = x.clone().requires_grad_()
            g = torch.autograd.grad(model(xg).sum(), xg)[0]
            opt.step()
    return [p.detach().clone() for p in model.parameters()] + [g]


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def test_a_correct_program_computes_bit_identical_results() -> None:
    plain, watched = train_params(False), train_params(True)
    assert all(torch.equal(a, b) for a, b in zip(plain, watched, strict=True))


def test_no_saved_tensor_outlives_its_backward() -> None:
    with autograd_doctor.watch():
        model = nn.Linear(64, 64)
        out = model(torch.randn(32, 64))
        ref = weakref.ref(out)
        loss = out.pow(2).sum()  # PowBackward0 saves `out`
        del out
        loss.backward()
        gc.collect()
        assert ref() is None


@pytest.mark.parametrize("style", ["thread", "multi-root", "scaler", "helper"])
def test_backward_from_threads_lists_scalers_and_helpers_is_diagnosed(style: str) -> None:
    caught: list[BaseException] = []

    def loop() -> None:
        torch.manual_seed(0)
        lin = nn.Linear(3, 3)
        opt = torch.optim.SGD(lin.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        state = torch.zeros(2, 3)
        for _ in range(3):
            state = torch.tanh(lin(state) + 1)
            loss = state.sum()
            opt.zero_grad()
            if style == "multi-root":
                torch.autograd.backward([loss])
            elif style == "scaler":
                scaler.scale(loss).backward()
            elif style == "helper":
                do_backward(loss)
            else:
                loss.backward()
            opt.step()

    def guarded() -> None:
        try:
            loop()
        except RuntimeError as exc:
            caught.append(exc)

    with autograd_doctor.watch():
        if style == "thread":
            t = threading.Thread(target=guarded)
            t.start()
            t.join()
        else:
            guarded()
    assert caught, "the error should still reach the user"
    notes = "\n".join(getattr(caught[0], "__notes__", []))
    assert "carried-state" in notes and "culprit    state (local)" in notes


def do_backward(loss: torch.Tensor) -> None:
    loss.backward()


def test_watching_keeps_neither_optimizers_nor_step_locals_alive() -> None:
    refs: list[weakref.ref[object]] = []

    def train_once() -> None:
        model = nn.Linear(8, 8)
        opt = torch.optim.Adam(model.parameters())
        for _ in range(2):
            out = model(torch.randn(4, 8))
            refs.append(weakref.ref(out))
            opt.zero_grad()
            out.square().mean().backward()
            opt.step()
        refs.append(weakref.ref(opt))

    with autograd_doctor.watch():
        train_once()
        for _ in range(9):  # later backward calls push the first ones out of the record
            torch.ones(1, requires_grad=True).sum().backward()
        gc.collect()
        assert [r() for r in refs] == [None, None, None]


def default_cache_loop() -> None:
    torch.manual_seed(0)
    encoder, model = nn.Linear(4, 4), nn.Linear(4, 1)
    opt = torch.optim.SGD([*encoder.parameters(), *model.parameters()], lr=0.1)

    def target(cache: dict[str, torch.Tensor] = {}) -> torch.Tensor:  # noqa: B006
        if "anchor" not in cache:
            cache["anchor"] = encoder(torch.ones(1, 4))
        return cache["anchor"].sum(1)

    for _ in range(3):
        loss = (model(torch.randn(8, 4)) - target()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def test_replay_of_a_callable_places_what_the_first_run_could_not() -> None:
    # The stale tensor lives in a function's mutable default argument: no frame the first
    # run looks at holds it. The traced replay knows where it was stored.
    with autograd_doctor.watch(notes=False) as doctor, pytest.raises(RuntimeError):
        default_cache_loop()
    first = list(doctor.findings)
    assert first[0].culprit is None
    found = autograd_doctor.replay(default_cache_loop)
    assert found[0].error == "backward-twice"
    assert found[0].culprit is not None and found[0].culprit.expression == 'cache["anchor"]'
    assert hooks.originals_restored()


def test_replay_pauses_an_installed_doctor_and_resumes_it() -> None:
    doctor = autograd_doctor.install(notes=False)
    try:
        autograd_doctor.replay(carried_rnn_loop)
        assert hooks.active() is doctor.capture
        with pytest.raises(RuntimeError):
            carried_rnn_loop()
        assert [f.category for f in autograd_doctor.findings()] == ["carried-state"]
    finally:
        autograd_doctor.uninstall()
    assert hooks.originals_restored()
