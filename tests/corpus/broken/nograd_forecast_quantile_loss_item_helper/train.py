"""Multi-horizon quantile forecaster for daily store sales: an MLP reads the last LOOKBACK
days and predicts the 10%, 50% and 90% quantiles of the next HORIZON days, trained on the
pinball loss from losses.py."""
import math

import torch
import torch.nn as nn

from losses import QUANTILES, quantile_loss

torch.manual_seed(0)
LOOKBACK, HORIZON, N_SERIES = 14, 4, 48


def make_windows(n_series, length=40):
    t = torch.arange(length, dtype=torch.float32)
    level = 5 + 2 * torch.rand(n_series, 1)
    weekly = torch.sin(2 * math.pi * t / 7) * torch.rand(n_series, 1)
    sales = level + weekly + 0.3 * torch.randn(n_series, length)
    start = torch.randint(0, length - LOOKBACK - HORIZON, (n_series,))
    idx = start[:, None] + torch.arange(LOOKBACK + HORIZON)
    window = sales.gather(1, idx)
    return window[:, :LOOKBACK], window[:, LOOKBACK:]


class QuantileMLP(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LOOKBACK, hidden), nn.ReLU(),
                                 nn.Linear(hidden, HORIZON * len(QUANTILES)))

    def forward(self, history):
        scale = history.mean(dim=1, keepdim=True)
        out = self.net(history / scale).view(-1, HORIZON, len(QUANTILES))
        return out * scale.unsqueeze(-1)


def train(model, epochs=3, batch_size=16):
    history, future = make_windows(N_SERIES)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        perm = torch.randperm(N_SERIES)
        for start in range(0, N_SERIES, batch_size):
            idx = perm[start:start + batch_size]
            pred = model(history[idx])
            loss = quantile_loss(pred, future[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} pinball {loss.item():.4f}")


train(QuantileMLP())
