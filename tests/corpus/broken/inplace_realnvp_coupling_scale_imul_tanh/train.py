"""Fit a RealNVP flow to a two-moons point cloud by maximum likelihood."""
import math

import torch

from model import RealNVP


def two_moons(n, noise=0.05):
    t = torch.rand(n) * math.pi
    upper = torch.stack([t.cos(), t.sin()], dim=1)
    lower = torch.stack([1 - t.cos(), 0.5 - t.sin()], dim=1)
    pick = (torch.rand(n) < 0.5).unsqueeze(1)
    return torch.where(pick, upper, lower) + noise * torch.randn(n, 2)


def train(epochs=3, batches_per_epoch=2, batch_size=128):
    torch.manual_seed(0)
    flow = RealNVP()
    optimizer = torch.optim.Adam(flow.parameters(), lr=1e-3)
    for epoch in range(epochs):
        total = 0.0
        for _ in range(batches_per_epoch):
            x = two_moons(batch_size)
            nll = -flow.log_prob(x).mean()
            optimizer.zero_grad()
            nll.backward()
            optimizer.step()
            total += nll.item()
        print(f"epoch {epoch} nll {total / batches_per_epoch:.4f}")
    return flow


if __name__ == "__main__":
    flow = train()
    with torch.no_grad():
        checksum = sum(p.sum().item() for p in flow.parameters())
    print(f"param checksum {checksum:.4f}")
