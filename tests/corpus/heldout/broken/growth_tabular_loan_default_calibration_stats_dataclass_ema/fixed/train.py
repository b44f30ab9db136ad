"""Loan-default classifier on a synthetic applications table, with a running calibration
monitor: exponential moving averages of the predicted default probability and of the
observed default rate, kept in a dataclass and printed as the calibration gap.
"""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ROWS, N_FEAT, BATCH, EPOCHS, MOMENTUM = 120, 8, 24, 2, 0.9


@dataclass
class CalibrationStats:
    momentum: float = MOMENTUM
    mean_pred: torch.Tensor = field(default_factory=lambda: torch.tensor(0.0))
    mean_rate: torch.Tensor = field(default_factory=lambda: torch.tensor(0.0))
    steps: int = 0

    def gap(self):
        return float(self.mean_pred - self.mean_rate)


class DefaultModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FEAT, 32), nn.BatchNorm1d(32), nn.ReLU(),
                                 nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(1)


def make_applications(gen):
    x = torch.randn(N_ROWS, N_FEAT, generator=gen)
    risk = 1.2 * x[:, 0] - 0.8 * x[:, 1] + 0.5 * x[:, 2] * x[:, 3] - 1.0
    y = torch.bernoulli(torch.sigmoid(risk), generator=gen)
    return x, y


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    x, y = make_applications(gen)
    model = DefaultModel()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    stats = CalibrationStats()
    for epoch in range(EPOCHS):
        perm = torch.randperm(N_ROWS, generator=gen)
        for start in range(0, N_ROWS, BATCH):
            idx = perm[start:start + BATCH]
            logits = model(x[idx])
            loss = F.binary_cross_entropy_with_logits(logits, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            m = stats.momentum
            stats.mean_pred = m * stats.mean_pred + (1 - m) * torch.sigmoid(logits).mean().detach()
            stats.mean_rate = m * stats.mean_rate + (1 - m) * y[idx].mean()
            stats.steps += 1
        print(f"epoch {epoch} loss {loss.item():.4f} calibration gap {stats.gap():+.4f} "
              f"after {stats.steps} steps")
    return stats


if __name__ == "__main__":
    train()
