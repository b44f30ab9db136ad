"""Hourly feeder-load forecasting on a synthetic daily-cycle series. Consecutive windows are
fed in order; the decoder of each window is seeded with the last forecast of the previous
window, and the model's online bias correction is updated after every batch."""
import math

import torch
import torch.nn.functional as F

from model import LoadForecaster

WINDOW, HORIZON, BATCH = 12, 4, 6


def make_series(n_hours, n_feeders):
    t = torch.arange(n_hours, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * t / 24)
    load = daily + 0.1 * torch.randn(n_feeders, n_hours) + torch.linspace(0, 0.5, n_feeders)[:, None]
    temperature = torch.cos(2 * math.pi * t / 24).expand(n_feeders, n_hours)
    return torch.stack([load, temperature], dim=-1)  # (feeders, hours, 2)


def windows(series):
    stride = WINDOW + HORIZON
    for start in range(0, series.size(1) - stride + 1, stride):
        past = series[:, start:start + WINDOW]
        future = series[:, start + WINDOW:start + stride, 0]
        yield past, future


def train(model, series, optimizer, epochs):
    for epoch in range(epochs):
        seed = series[:, 0, :1]
        total = 0.0
        for i, (past, future) in enumerate(windows(series)):
            forecast = model(past, seed, HORIZON)
            loss = F.mse_loss(forecast, future)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model.observe(forecast, future)
            seed = forecast[:, -1:]
            total += loss.item()
        print(f"epoch {epoch} mse {total / (i + 1):.4f} bias {model.bias.item():+.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    series = make_series(n_hours=96, n_feeders=BATCH)
    model = LoadForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train(model, series, optimizer, epochs=2)
