"""Electricity-price forecaster (1D CNN over the last 48 hours) with a snapshot ensemble: the
holdout forecast is recorded after every optimizer step and the last snapshots are averaged."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON = 48, 6


class PriceCNN(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, channels, kernel_size=5, padding=2), nn.GELU(),
            nn.Conv1d(channels, channels, kernel_size=5, padding=2, dilation=1), nn.GELU(),
        )
        self.head = nn.Linear(channels * LOOKBACK, HORIZON)

    def forward(self, x):
        return self.head(self.conv(x.unsqueeze(1)).flatten(1))


@dataclass
class RunState:
    step: int = 0
    train_losses: List[float] = field(default_factory=list)
    snapshot_preds: List[torch.Tensor] = field(default_factory=list)


def price_windows(n):
    t = torch.arange(LOOKBACK + HORIZON, dtype=torch.float32) + 24 * torch.rand(n, 1)
    price = 40 + 10 * torch.sin(t * 2 * torch.pi / 24) + 2 * torch.randn(n, t.size(1))
    return (price[:, :LOOKBACK] - 40) / 10, (price[:, LOOKBACK:] - 40) / 10


def main(steps=10, keep=4):
    torch.manual_seed(0)
    model = PriceCNN()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    holdout_x, holdout_y = price_windows(16)
    state = RunState()
    for _ in range(steps):
        x, y = price_windows(32)
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state.step += 1
        state.train_losses.append(loss.item())
        state.snapshot_preds.append(model(holdout_x))
        print(f"step {state.step} train mse {loss.item():.4f}")
    ensemble = torch.stack(state.snapshot_preds[-keep:]).mean(dim=0)
    print(f"snapshot ensemble holdout mae {F.l1_loss(ensemble, holdout_y).item():.4f}")
    return state


if __name__ == "__main__":
    main()
