"""Unsupervised anomaly detection on pump vibration spectra: an autoencoder is trained on
(mostly) healthy windows, and a moving estimate of the reconstruction-error distribution
gives the alarm threshold (mean + 3 std) that the monitoring service will use."""
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_BINS, CODE, BATCH = 32, 6, 48


@dataclass
class ErrorStats:
    """Exponential moving mean and second moment of per-window reconstruction errors."""
    momentum: float = 0.8
    mean: torch.Tensor = field(default_factory=lambda: torch.tensor(0.0))
    sq_mean: torch.Tensor = field(default_factory=lambda: torch.tensor(0.0))
    updates: int = 0

    def update(self, errors):
        m = self.momentum if self.updates else 0.0
        self.mean = m * self.mean + (1 - m) * errors.mean()
        self.sq_mean = m * self.sq_mean + (1 - m) * errors.pow(2).mean()
        self.updates += 1

    def threshold(self, k=3.0):
        var = float(self.sq_mean - self.mean ** 2)
        return float(self.mean) + k * math.sqrt(max(var, 1e-12))


def vibration_windows(n, gen, fault_rate=0.05):
    """Healthy spectra: peaks at the shaft harmonics. Faulty ones add a bearing tone."""
    bins = torch.arange(N_BINS).float()
    harmonics = sum(torch.exp(-(bins - h) ** 2 / 2.0) for h in (4, 8, 12))
    amp = 1.0 + 0.2 * torch.randn(n, 1, generator=gen)
    spectra = amp * harmonics + 0.05 * torch.randn(n, N_BINS, generator=gen)
    faulty = torch.rand(n, generator=gen) < fault_rate
    spectra[faulty] += 2.5 * torch.exp(-(bins - 23) ** 2 / 1.5)
    return spectra, faulty


def make_autoencoder():
    return nn.Sequential(
        nn.Linear(N_BINS, 16), nn.ReLU(), nn.Linear(16, CODE),
        nn.ReLU(), nn.Linear(CODE, 16), nn.ReLU(), nn.Linear(16, N_BINS))


def train_epoch(model, optimizer, batches, stats):
    for spectra, faulty in batches:
        recon = model(spectra)
        errors = (recon - spectra).pow(2).mean(dim=1)
        loss = errors.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats.update(errors)
        flagged = int((errors > stats.threshold()).sum())
        caught = int((errors > stats.threshold())[faulty].sum())
        print(f"loss {loss.item():.4f} threshold {stats.threshold():.4f} "
              f"flagged {flagged} (true faults caught {caught}/{int(faulty.sum())})")


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    model = make_autoencoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    stats = ErrorStats()
    batches = [vibration_windows(BATCH, gen) for _ in range(3)]
    for epoch in range(2):
        print(f"epoch {epoch}")
        train_epoch(model, optimizer, batches, stats)
