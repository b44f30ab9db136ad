"""Multi-step hourly load forecasting. The loss is computed on the same autoregressive
rollout the forecasting service uses, so that errors compounding over the horizon are
what the model is trained on."""
import math

import torch
import torch.nn.functional as F

from model import Forecaster

torch.manual_seed(0)
LOOKBACK, HORIZON, BATCH = 16, 4, 24


def load_curve(n_days):
    hours = torch.arange(n_days * 24, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * hours / 24)
    weekly = 0.3 * torch.sin(2 * math.pi * hours / (24 * 7))
    return (daily + weekly + 0.1 * torch.randn_like(hours))[:, None]


def sample_windows(series, n):
    starts = torch.randint(0, len(series) - LOOKBACK - HORIZON, (n,)).tolist()
    history = torch.stack([series[s:s + LOOKBACK] for s in starts])
    future = torch.stack([series[s + LOOKBACK:s + LOOKBACK + HORIZON] for s in starts])
    return history, future


series = load_curve(14)
model = Forecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(3):
    for _ in range(2):
        history, future = sample_windows(series, BATCH)
        forecast = model.rollout(history, HORIZON)
        loss = F.mse_loss(forecast, future)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} rollout mse {loss.item():.4f}")
