"""RealNVP-style normalizing flow on a 2-D banana distribution: affine coupling layers
with alternating masks, trained by maximum likelihood. train_epoch() returns the epoch
metrics in a dict for the logger."""
import math
from collections import defaultdict

import torch
import torch.nn as nn

torch.manual_seed(0)


class AffineCoupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 4))

    def forward(self, x):
        log_s, t = self.net(x * self.mask).chunk(2, dim=1)
        log_s = torch.tanh(log_s) * (1 - self.mask)
        y = x * self.mask + (1 - self.mask) * (x * log_s.exp() + t)
        return y, log_s.sum(1)


class RealNVP(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])]
        self.layers = nn.ModuleList(AffineCoupling(masks[i % 2]) for i in range(n_layers))

    def log_prob(self, x):
        log_det = torch.zeros(len(x))
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        base = -0.5 * (x ** 2).sum(1) - math.log(2 * math.pi)
        return base + log_det


def banana(n):
    a = torch.randn(n)
    return torch.stack([a, 0.5 * a ** 2 + 0.3 * torch.randn(n) - 1], dim=1)


def train_epoch(flow, optimizer, batches):
    metrics = defaultdict(float)
    for x in batches:
        nll = -flow.log_prob(x).mean()
        optimizer.zero_grad()
        nll.backward()
        optimizer.step()
        metrics["nll"] += nll
        metrics["bits_per_dim"] += nll.item() / (2 * math.log(2))
    return {k: v / len(batches) for k, v in metrics.items()}


flow = RealNVP()
optimizer = torch.optim.Adam(flow.parameters(), lr=3e-3)
data = banana(640)
batches = list(data.split(64))
stats = train_epoch(flow, optimizer, batches)
print(f"epoch nll {stats['nll']:.4f} bits/dim {stats['bits_per_dim']:.4f}")
