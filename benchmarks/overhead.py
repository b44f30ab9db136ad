"""Cost of autograd-doctor on correct training loops, against the same loop without it, and
against torch.autograd.set_detect_anomaly(True), measured in one run.

    python benchmarks/overhead.py [--steps N] [--rounds R] [--json FILE]

Time: the three configurations take turns, R rounds of N steps each; each round gives each
configuration's median step time, and the figure is the median over rounds of the ratio to
plain within the round, so drift in machine speed hits all three alike and drops out.
Memory: each configuration runs in a fresh interpreter and reports its peak resident set
(ru_maxrss), so one configuration's allocations cannot hide in another's.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

import torch
import torch.nn as nn

from autograd_doctor.doctor import Doctor

Step = Callable[[], None]


def lstm_lm() -> Step:
    vocab, emb, hid, bptt, batch = 5000, 200, 256, 35, 20
    torch.manual_seed(0)

    class LM(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, emb)
            self.lstm = nn.LSTM(emb, hid, num_layers=2, dropout=0.2)
            self.out = nn.Linear(hid, vocab)

        def forward(self, x: torch.Tensor, hidden: tuple[torch.Tensor, torch.Tensor]
                    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
            out, hidden = self.lstm(self.embed(x), hidden)
            return self.out(out), hidden

    model = LM()
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    crit = nn.CrossEntropyLoss()
    data = torch.randint(0, vocab, (bptt + 1, batch))
    hidden = (torch.zeros(2, batch, hid), torch.zeros(2, batch, hid))

    def step() -> None:
        nonlocal hidden
        hidden = tuple(h.detach() for h in hidden)  # type: ignore[assignment]
        logits, hidden = model(data[:-1], hidden)
        loss = crit(logits.view(-1, vocab), data[1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()

    return step


def small_cnn() -> Step:
    torch.manual_seed(0)

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                             nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                             nn.MaxPool2d(2))

    model = nn.Sequential(block(3, 32), block(32, 64), block(64, 128), nn.Flatten(),
                          nn.Linear(128 * 4 * 4, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    crit = nn.CrossEntropyLoss()
    x, y = torch.randn(32, 3, 32, 32), torch.randint(0, 10, (32,))

    def step() -> None:
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    return step


def small_transformer() -> Step:
    torch.manual_seed(0)
    vocab, d, seq, batch = 2000, 128, 64, 16
    embed = nn.Embedding(vocab, d)
    layer = nn.TransformerEncoderLayer(d, nhead=4, dim_feedforward=512, batch_first=True)
    encoder = nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)
    head = nn.Linear(d, vocab)
    params = [*embed.parameters(), *encoder.parameters(), *head.parameters()]
    opt = torch.optim.AdamW(params, lr=3e-4)
    crit = nn.CrossEntropyLoss()
    tokens = torch.randint(0, vocab, (batch, seq + 1))
    mask = nn.Transformer.generate_square_subsequent_mask(seq)

    def step() -> None:
        out = head(encoder(embed(tokens[:, :-1]), mask=mask, is_causal=True))
        loss = crit(out.reshape(-1, vocab), tokens[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()

    return step


def tiny_mlp() -> Step:
    """Not a realistic loop: a step of well under a millisecond, so that the doctor's fixed
    cost per step (about what one backward call costs it) shows as a ratio too."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(32, 16), torch.randn(32, 1)

    def step() -> None:
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    return step


LOOPS: dict[str, Callable[[], Step]] = {
    "lstm-lm": lstm_lm, "small-cnn": small_cnn, "small-transformer": small_transformer,
    "tiny-mlp (worst case)": tiny_mlp}


_doctors: dict[str, Doctor] = {}


@contextmanager
def _doctor(loop: str) -> Iterator[None]:
    """One doctor per loop for the whole measurement, as in one real run: its first-steps
    checks land in the first rounds, the rest is the steady state."""
    doctor = _doctors.setdefault(loop, Doctor(notes=True, announce=None))
    doctor.capture.install()
    try:
        yield
    finally:
        doctor.capture.uninstall()


def context(config: str, loop: str = "") -> AbstractContextManager[object]:
    if config == "doctor":
        return _doctor(loop)
    if config == "anomaly":
        return torch.autograd.set_detect_anomaly(True)
    return nullcontext()


def timed(step: Step, config: str, n: int, loop: str = "") -> list[float]:
    times = []
    with context(config, loop):
        for _ in range(n):
            start = time.perf_counter()
            step()
            times.append(time.perf_counter() - start)
    return times


def measure_time(name: str, steps: int, rounds: int) -> dict[str, float]:
    step = LOOPS[name]()
    for _ in range(3):
        step()  # warm up allocator and kernels
    configs = ("plain", "doctor", "anomaly")
    per_round: dict[str, list[float]] = {c: [] for c in configs}
    for r in range(rounds):
        order = configs if r % 2 == 0 else tuple(reversed(configs))
        for config in order:
            per_round[config].append(statistics.median(timed(step, config, steps, name)))
    # Ratios within a round, then the median over rounds: a slow patch of the machine hits
    # the three configurations of a round alike and drops out.
    def ratio(config: str) -> float:
        return statistics.median(a / b for a, b in zip(per_round[config], per_round["plain"]))

    added = statistics.median(a - b for a, b in zip(per_round["doctor"], per_round["plain"]))
    return {
        "plain_ms": statistics.median(per_round["plain"]) * 1e3,
        "doctor_ms": statistics.median(per_round["doctor"]) * 1e3,
        "anomaly_ms": statistics.median(per_round["anomaly"]) * 1e3,
        "doctor_ratio": ratio("doctor"),
        "doctor_added_us": added * 1e6,
        "anomaly_ratio": ratio("anomaly"),
    }


def peak_rss(name: str, config: str, steps: int) -> int:
    """Peak resident set (KiB) of a fresh interpreter running the loop."""
    code = (f"import sys; sys.path.insert(0, {sys.path[0]!r}); import overhead as o; "
            f"o.timed(o.LOOPS[{name!r}](), {config!r}, {steps}); "
            "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return int(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8, help="steps per round and config")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--loops", nargs="*", default=list(LOOPS))
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    torch.set_num_threads(max(1, torch.get_num_threads()))
    results = {}
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"{args.rounds} rounds x {args.steps} steps per configuration")
    print(f"{'loop':<22} {'plain ms':>9} {'doctor':>8} {'(+us/step)':>11} {'anomaly':>8} "
          f"{'peak RSS doctor/plain':>22}")
    for name in args.loops:
        t = measure_time(name, args.steps, args.rounds)
        plain_kb = peak_rss(name, "plain", args.steps * 2)
        doctor_kb = peak_rss(name, "doctor", args.steps * 2)
        t["rss_plain_mib"] = plain_kb / 1024
        t["rss_doctor_mib"] = doctor_kb / 1024
        t["rss_ratio"] = doctor_kb / plain_kb
        results[name] = t
        print(f"{name:<22} {t['plain_ms']:>9.2f} {t['doctor_ratio']:>7.3f}x "
              f"{t['doctor_added_us']:>+11.0f} {t['anomaly_ratio']:>7.3f}x "
              f"{t['rss_ratio']:>21.3f}x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
    _ = resource  # (imported for the child processes' benefit)


if __name__ == "__main__":
    main()
