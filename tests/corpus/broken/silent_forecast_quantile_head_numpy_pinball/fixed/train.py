"""Demand forecasting with a shared GRU trunk and two heads: a point forecast trained with
MSE and a 10%/90% quantile band trained with the pinball loss. The pinball loss was ported
from the NumPy evaluation notebook."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LOOKBACK, BATCH = 12, 32
QUANTILES = torch.tensor([0.1, 0.9])


class DemandModel(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.trunk = nn.GRU(1, hidden, batch_first=True)
        self.point_head = nn.Linear(hidden, 1)
        self.quantile_head = nn.Linear(hidden, len(QUANTILES))

    def forward(self, history):
        _, h = self.trunk(history)
        return self.point_head(h[-1]), self.quantile_head(h[-1])


def pinball_loss(pred, target, quantiles):
    diff = target - pred
    return torch.mean(torch.maximum(quantiles * diff, (quantiles - 1) * diff))


def make_batch():
    start = 24 * torch.rand(BATCH, 1)
    t = start + torch.arange(LOOKBACK + 1)
    series = 2 + torch.sin(2 * math.pi * t / 24) + 0.3 * torch.randn(BATCH, LOOKBACK + 1)
    return series[:, :LOOKBACK, None], series[:, LOOKBACK:]


def fit(model, epochs=3, steps=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(epochs):
        for _ in range(steps):
            history, target = make_batch()
            point, band = model(history)
            mse = F.mse_loss(point, target)
            pinball = pinball_loss(band, target, QUANTILES)
            loss = mse + pinball
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} mse {mse.item():.4f} pinball {pinball.item():.4f}")


model = DemandModel()
fit(model)
