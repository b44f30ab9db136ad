"""Store-level sales forecasting for 3 related series: 32 days of history in, the next
`horizon` days out. The horizon comes from the experiment config."""
import math

import torch
import torch.nn.functional as F

from model import TCNForecaster

CONFIG = {"lookback": 32, "horizon": 7, "lr": 2e-3, "epochs": 3, "batch_size": 16}


def make_sales(days, generator):
    t = torch.arange(days, dtype=torch.float32)
    weekly = torch.sin(2 * math.pi * t / 7)
    base = torch.stack([weekly, 0.5 * weekly + 0.01 * t, torch.cos(2 * math.pi * t / 7)])
    return base + 0.1 * torch.randn(3, days, generator=generator)


def windows(series, lookback, horizon):
    xs, ys = [], []
    for s in range(0, series.shape[1] - lookback - horizon, 3):
        xs.append(series[:, s:s + lookback])
        ys.append(series[:, s + lookback:s + lookback + horizon])
    return torch.stack(xs), torch.stack(ys)


def train(config):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x, y = windows(make_sales(160, gen), config["lookback"], config["horizon"])
    model = TCNForecaster(n_series=3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"], weight_decay=1e-2)
    model.set_horizon(config["horizon"])

    for epoch in range(config["epochs"]):
        order = torch.randperm(len(x), generator=gen)[:2 * config["batch_size"]]
        for idx in order.split(config["batch_size"]):
            loss = F.mse_loss(model(x[idx]), y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} mse {loss.item():.4f}")
    return model


if __name__ == "__main__":
    train(CONFIG)
