"""Density estimation on the two-moons distribution with a RealNVP (flows.py)."""
import math

import torch

from flows import RealNVP

torch.manual_seed(0)


def two_moons(n):
    t = math.pi * torch.rand(n)
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


def fit(flow, steps=6, batch=128):
    opt = torch.optim.Adam(flow.parameters(), lr=2e-3)
    for step in range(steps):
        x = two_moons(batch)
        nll = -flow.log_prob(x).mean()
        opt.zero_grad()
        nll.backward()
        torch.nn.utils.clip_grad_norm_(flow.parameters(), 5.0)
        opt.step()
        print(f"step {step} nll {nll.item():.4f}")


if __name__ == "__main__":
    fit(RealNVP())
