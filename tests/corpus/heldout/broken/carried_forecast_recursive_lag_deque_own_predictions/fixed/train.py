"""Daily demand forecaster for a few stores, trained the way it will be used: recursively.
The lag features for day t are the model's own forecasts for the previous LAGS days,
kept in a deque, plus the day's promotion/holiday covariates."""
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_STORES, LAGS, N_COV = 5, 3, 2


class LagForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.store_bias = nn.Embedding(N_STORES, 1)
        self.net = nn.Sequential(nn.Linear(LAGS + N_COV, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, lags, covariates, store_ids):
        x = torch.cat([lags, covariates], dim=1)
        return self.net(x).squeeze(1) + self.store_bias(store_ids).squeeze(1)


def simulate_demand(n_days, rng):
    base = rng.uniform(2.0, 4.0, size=(N_STORES, 1))
    promo = (rng.random((N_STORES, n_days)) < 0.2).astype(np.float32)
    holiday = np.tile((np.arange(n_days) % 7 == 6).astype(np.float32), (N_STORES, 1))
    demand = base + 0.8 * promo - 0.5 * holiday + 0.1 * rng.standard_normal((N_STORES, n_days))
    covariates = np.stack([promo, holiday], axis=-1)
    return torch.tensor(demand, dtype=torch.float32), torch.tensor(covariates)


def train(n_days=9, lr=5e-3):
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    demand, covariates = simulate_demand(n_days + LAGS, rng)
    model = LagForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    store_ids = torch.arange(N_STORES)

    # warm start the recursion with the observed demand of the first LAGS days
    recent = deque((demand[:, d] for d in range(LAGS)), maxlen=LAGS)
    for day in range(LAGS, n_days + LAGS):
        lags = torch.stack(list(recent), dim=1)
        pred = model(lags, covariates[:, day], store_ids)
        loss = F.mse_loss(pred, demand[:, day])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        recent.append(pred.detach())
        mape = ((pred - demand[:, day]).abs() / demand[:, day]).mean().item()
        print(f"day {day}: mse {loss.item():.4f} mape {100 * mape:.1f}%")
    return model


if __name__ == "__main__":
    train()
