"""Probabilistic wind-power curve: Gaussian NLL with a learned global noise level."""
import numpy as np
import torch
import torch.nn as nn

RATED_MW = 2.0


def turbine_data(n=128):
    speed = torch.rand(n, 1) * 20.0
    direction = torch.rand(n, 1) * 2 * np.pi
    power = RATED_MW * torch.sigmoid(0.9 * (speed - 9.0)) * (speed < 18).float()
    x = torch.cat([speed / 20.0, torch.sin(direction), torch.cos(direction)], dim=1)
    return x, power + 0.05 * torch.randn_like(power)


def make_step(model, log_sigma, optimizer):
    def step(x, y):
        raw = model(x)
        # the farm can never deliver more than its rated capacity
        mu = raw.clamp(0.0, RATED_MW)
        var = torch.exp(2 * log_sigma)
        nll = 0.5 * ((y - mu) ** 2 / var + 2 * log_sigma).mean()
        optimizer.zero_grad()
        nll.backward()
        optimizer.step()
        return nll.item()
    return step


if __name__ == "__main__":
    torch.manual_seed(12)
    x, y = turbine_data()
    model = nn.Sequential(nn.Linear(3, 32), nn.SiLU(), nn.Linear(32, 1))
    log_sigma = nn.Parameter(torch.zeros(()))
    optimizer = torch.optim.Adam([*model.parameters(), log_sigma], lr=1e-2)
    step = make_step(model, log_sigma, optimizer)
    for epoch in range(3):
        for i in range(0, len(x), 32):
            value = step(x[i:i + 32], y[i:i + 32])
        print(f"epoch {epoch} nll {value:.4f} sigma {log_sigma.exp().item():.4f}")
