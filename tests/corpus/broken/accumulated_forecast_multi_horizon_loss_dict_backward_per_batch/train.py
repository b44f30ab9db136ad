"""Direct multi-horizon electricity-load forecaster: an MLP over the last 24 hourly loads
predicts the next 1, 6 and 12 hours at once. The training loop keeps a per-horizon loss
dict for the epoch report and backwards the mean of that dict after every batch."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZONS, BATCH, N_BATCHES, EPOCHS = 24, (1, 6, 12), 16, 4, 2


def load_curve(n_hours):
    t = torch.arange(n_hours, dtype=torch.float)
    daily = torch.sin(2 * math.pi * t / 24)
    weekly = 0.3 * torch.sin(2 * math.pi * t / 168)
    return 1.0 + 0.5 * daily + weekly + 0.05 * torch.randn(n_hours)


def make_windows(series, n):
    starts = torch.randint(0, series.numel() - LOOKBACK - max(HORIZONS), (n,))
    x = torch.stack([series[s:s + LOOKBACK] for s in starts])
    y = torch.stack([series[s + LOOKBACK + torch.tensor(HORIZONS) - 1] for s in starts])
    return x, y


class MultiHorizonMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(LOOKBACK, 64), nn.GELU(), nn.Linear(64, 32), nn.GELU())
        self.heads = nn.ModuleDict({f"h{h}": nn.Linear(32, 1) for h in HORIZONS})

    def forward(self, x):
        z = self.body(x)
        return {name: head(z).squeeze(-1) for name, head in self.heads.items()}


def train():
    torch.manual_seed(0)
    series = load_curve(24 * 14)
    model = MultiHorizonMLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    for epoch in range(EPOCHS):
        horizon_loss = {f"h{h}": 0.0 for h in HORIZONS}
        for batch in range(N_BATCHES):
            x, y = make_windows(series, BATCH)
            preds = model(x)
            for i, h in enumerate(HORIZONS):
                horizon_loss[f"h{h}"] = horizon_loss[f"h{h}"] + F.mse_loss(preds[f"h{h}"], y[:, i])
            loss = sum(horizon_loss.values()) / len(HORIZONS)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        report = ", ".join(f"{k} {float(v) / N_BATCHES:.4f}" for k, v in horizon_loss.items())
        print(f"epoch {epoch}: {report}")
    return model


if __name__ == "__main__":
    train()
