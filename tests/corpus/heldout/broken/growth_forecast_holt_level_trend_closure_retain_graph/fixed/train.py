"""Hybrid Holt smoothing + MLP forecaster for a retail demand series, trained online: each
new observation updates the smoothed level and trend (with learned smoothing rates), and an
MLP on the last few lags predicts what the smoothing misses. The level/trend state lives in
the closure returned by make_online_learner()."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
LAGS, N_STORES = 4, 5


class HoltResidualModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha_logit = nn.Parameter(torch.tensor(0.0))
        self.beta_logit = nn.Parameter(torch.tensor(-1.0))
        self.residual = nn.Sequential(nn.Linear(LAGS, 16), nn.Tanh(), nn.Linear(16, 1))

    def rates(self):
        return torch.sigmoid(self.alpha_logit), torch.sigmoid(self.beta_logit)


def demand_series(length):
    t = torch.arange(length).float()
    weekly = 0.6 * torch.sin(2 * math.pi * t / 7)
    base = 5 + 0.05 * t + weekly
    return base + 0.2 * torch.randn(N_STORES, length)


def make_online_learner(model, optimizer, first_obs):
    level = first_obs.clone()
    trend = torch.zeros_like(first_obs)

    def observe(y_obs, lags, y_next):
        nonlocal level, trend
        level, trend = level.detach(), trend.detach()
        alpha, beta = model.rates()
        new_level = alpha * y_obs + (1 - alpha) * (level + trend)
        trend = beta * (new_level - level) + (1 - beta) * trend
        level = new_level
        forecast = level + trend + model.residual(lags - level[:, None]).squeeze(-1)
        loss = (forecast - y_next).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()

    return observe


series = demand_series(LAGS + 14)
model = HoltResidualModel()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
observe = make_online_learner(model, optimizer, series[:, 0])
for t in range(LAGS, series.shape[1]):
    mse = observe(series[:, t - 1], series[:, t - LAGS:t], series[:, t])
    if t % 2 == 0:
        a, b = model.rates()
        print(f"day {t:2d}  mse {mse:.4f}  alpha {a.item():.3f}  beta {b.item():.3f}")
