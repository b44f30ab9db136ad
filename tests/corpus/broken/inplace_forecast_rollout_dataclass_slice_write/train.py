"""Multi-step load forecasting trained with an autoregressive rollout: the model sees the
last LOOKBACK values, predicts the next one, and the prediction is written into a
preallocated history buffer so the next window can read it."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, BATCH = 12, 4, 16


@dataclass
class RolloutBuffer:
    history: torch.Tensor  # (batch, LOOKBACK + HORIZON): observed context, then forecasts
    lookback: int = LOOKBACK

    def window(self, t):
        return self.history[:, t:t + self.lookback]

    def write(self, t, value):
        self.history[:, t + self.lookback] = value.squeeze(1)


def make_series(n, length):
    t = torch.arange(length).float()
    phase = torch.rand(n, 1) * 2 * math.pi
    daily = torch.sin(2 * math.pi * t / 12 + phase)
    trend = 0.02 * t * torch.rand(n, 1)
    return daily + trend + 0.05 * torch.randn(n, length)


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LOOKBACK, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, window):
        return self.net(window)


def rollout(model, context):
    buf = RolloutBuffer(torch.cat([context, context.new_zeros(context.size(0), HORIZON)], 1))
    preds = []
    for t in range(HORIZON):
        pred = model(buf.window(t))
        buf.write(t, pred)
        preds.append(pred)
    return torch.cat(preds, dim=1)


def main(epochs=5):
    torch.manual_seed(0)
    model = Forecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        series = make_series(BATCH, LOOKBACK + HORIZON)
        context, target = series[:, :LOOKBACK], series[:, LOOKBACK:]
        forecast = rollout(model, context)
        loss = F.mse_loss(forecast, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} rollout mse {loss.item():.4f}")
    return loss.item()


if __name__ == "__main__":
    main()
