"""Electricity-load forecaster: 24 lagged hourly readings -> next 4 hours. Pretrained on
a large site, then fine-tuned on a small new site with the BatchNorm layers frozen."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from finetune_utils import count_trainable, freeze_batchnorm

LAGS, HORIZON = 24, 4


def site_windows(n, phase, scale, gen):
    start = torch.rand(n, 1, generator=gen) * 200
    t = start + torch.arange(LAGS + HORIZON)
    load = scale * (1 + 0.5 * torch.sin(2 * math.pi * t / 24 + phase))
    load = load + 0.05 * torch.randn(load.shape, generator=gen)
    return load[:, :LAGS], load[:, LAGS:]


def build_model():
    return nn.Sequential(
        nn.Linear(LAGS, 64), nn.BatchNorm1d(64), nn.GELU(),
        nn.Linear(64, 32), nn.BatchNorm1d(32), nn.GELU(),
        nn.Linear(32, HORIZON))


def run_epochs(model, optimizer, windows, steps, tag):
    x, y = windows
    for step in range(steps):
        idx = torch.arange(step * 16, (step + 1) * 16) % len(x)
        loss = F.mse_loss(model(x[idx]), y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"{tag}: mse {loss.item():.4f} trainable {count_trainable(model)}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = build_model()
    run_epochs(model, torch.optim.Adam(model.parameters(), lr=3e-3),
               site_windows(128, 0.0, 1.0, gen), steps=5, tag="pretrain site A")

    freeze_batchnorm(model)
    finetune_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    run_epochs(model, finetune_opt, site_windows(48, 1.3, 1.6, gen), steps=3,
               tag="finetune site B")


if __name__ == "__main__":
    main()
