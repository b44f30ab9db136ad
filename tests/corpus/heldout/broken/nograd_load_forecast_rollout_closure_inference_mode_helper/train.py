"""Hourly electricity load: a small MLP sees the last 24 hours and predicts the next hour;
it is trained directly on a 6-hour autoregressive rollout (multi-step loss) so that the
errors it makes when fed its own predictions are penalised."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from rollout import make_multi_step, smape

WINDOW, HORIZON = 24, 6


def hourly_load(hours):
    t = torch.arange(hours, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * t / 24)
    weekly = 0.3 * torch.sin(2 * math.pi * t / 168)
    return 1.5 + daily + weekly + 0.1 * torch.randn(hours)


def make_windows(series):
    xs, ys = [], []
    for start in range(0, len(series) - WINDOW - HORIZON, 5):
        xs.append(series[start:start + WINDOW])
        ys.append(series[start + WINDOW:start + WINDOW + HORIZON])
    return torch.stack(xs), torch.stack(ys)


def train(epochs=3, batch_size=16):
    torch.manual_seed(0)
    x_all, y_all = make_windows(hourly_load(400))
    model = nn.Sequential(nn.Linear(WINDOW, 32), nn.Tanh(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    forecast = make_multi_step(model, HORIZON)

    for epoch in range(epochs):
        perm = torch.randperm(len(x_all))[:3 * batch_size]
        for start in range(0, len(perm), batch_size):
            idx = perm[start:start + batch_size]
            pred = forecast(x_all[idx])
            loss = F.l1_loss(pred, y_all[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            score = smape(forecast(x_all), y_all)
        print(f"epoch {epoch} l1 {loss.item():.4f} smape {score:.4f}")


if __name__ == "__main__":
    train()
