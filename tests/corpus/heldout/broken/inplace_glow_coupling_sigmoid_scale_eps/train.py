"""Fit a small Glow-style flow to the two-moons density by maximum likelihood."""
import math

import torch

from flows import Flow

torch.manual_seed(0)


def two_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


def train(steps=6, batch_size=128):
    flow = Flow(dim=2, n_blocks=3)
    optimizer = torch.optim.Adam(flow.parameters(), lr=3e-3)
    for step in range(steps):
        x = two_moons(batch_size)
        nll = -flow.log_prob(x).mean()
        optimizer.zero_grad()
        nll.backward()
        optimizer.step()
        print(f"step {step} nll {nll.item():.4f}")
    return nll.item()


if __name__ == "__main__":
    print(f"final nll {train():.4f}")
