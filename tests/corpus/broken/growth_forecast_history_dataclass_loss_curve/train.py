"""Hourly load forecaster (an MLP over a window of lags) trained by train() with an epoch
loop around the batch loop. A History dataclass collects the learning curve so it can be
plotted after the run."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LAGS, HORIZON = 24, 6


@dataclass
class History:
    train_losses: list = field(default_factory=list)
    learning_rates: list = field(default_factory=list)

    def record(self, loss, lr):
        self.train_losses.append(loss)
        self.learning_rates.append(lr)

    def summary(self):
        best = min(self.train_losses)
        return f"{len(self.train_losses)} steps, best {best:.4f}, last {self.train_losses[-1]:.4f}"


def make_windows(n_series=64):
    t = torch.arange(LAGS + HORIZON, dtype=torch.float32)
    phase = 2 * torch.pi * torch.rand(n_series, 1)
    series = torch.sin(2 * torch.pi * t / 24 + phase) + 0.1 * torch.randn(n_series, len(t))
    return series[:, :LAGS], series[:, LAGS:]


def train(model, windows, targets, epochs=2, batch_size=16):
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.8)
    history = History()
    for epoch in range(epochs):
        for start in range(0, len(windows), batch_size):
            x = windows[start:start + batch_size]
            y = targets[start:start + batch_size]
            loss = F.smooth_l1_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            history.record(loss, scheduler.get_last_lr()[0])
        scheduler.step()
        print(f"epoch {epoch} last loss {loss.item():.4f}")
    return history


model = nn.Sequential(nn.Linear(LAGS, 32), nn.GELU(), nn.Linear(32, HORIZON))
windows, targets = make_windows()
history = train(model, windows, targets)
print(history.summary())
