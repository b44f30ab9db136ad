"""Glow-style normalising flow on 4-D data (two moons lifted to 4-D): affine coupling layers
alternating with LU-parameterised invertible linear maps, trained by maximum likelihood."""
import math

import torch
import torch.nn as nn

DIM, HIDDEN, N_BLOCKS, BATCH = 4, 32, 2, 64


def two_moons_4d(n):
    t = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    base = torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)
    return torch.cat([base, base @ torch.tensor([[0.6, -0.3], [0.2, 0.9]])], dim=1)


class LUInvertibleLinear(nn.Module):
    """W = P L (U + diag(sign * exp(log_s))), so log|det W| = sum(log_s)."""

    def __init__(self, dim):
        super().__init__()
        w0 = torch.linalg.qr(torch.randn(dim, dim))[0]
        p, lower, upper = torch.linalg.lu(w0)
        diag = torch.diagonal(upper)
        self.register_buffer("perm", p)
        self.register_buffer("sign", torch.sign(diag))
        self.lower = nn.Parameter(torch.tril(lower, -1))
        self.upper = nn.Parameter(torch.triu(upper, 1))
        self.log_s = nn.Parameter(diag.abs().log())

    def weight(self):
        eye = torch.eye(self.lower.size(0))
        lower = torch.tril(self.lower, -1) + eye
        upper = torch.triu(self.upper, 1) + torch.diag(self.sign * self.log_s.exp())
        return self.perm @ lower @ upper

    def forward(self, x):
        return x @ self.weight().t(), self.log_s.sum().expand(x.size(0))


class AffineCoupling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.half = dim // 2
        self.net = nn.Sequential(nn.Linear(self.half, HIDDEN), nn.ReLU(),
                                 nn.Linear(HIDDEN, 2 * (dim - self.half)))

    def forward(self, x):
        xa, xb = x[:, :self.half], x[:, self.half:]
        log_scale, shift = self.net(xa).chunk(2, dim=1)
        log_scale = torch.tanh(log_scale)
        return torch.cat([xa, xb * log_scale.exp() + shift], dim=1), log_scale.sum(dim=1)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList()
        for _ in range(N_BLOCKS):
            self.layers.extend([AffineCoupling(DIM), LUInvertibleLinear(DIM)])

    def log_prob(self, x):
        log_det = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        base = -0.5 * (x ** 2).sum(dim=1) - 0.5 * DIM * math.log(2 * math.pi)
        return base + log_det


def train(epochs=2, batches=3):
    torch.manual_seed(0)
    data = two_moons_4d(epochs * batches * BATCH)
    flow = Flow()
    optimizer = torch.optim.Adam(flow.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for b, x in enumerate(data[epoch * batches * BATCH:].split(BATCH)[:batches]):
            nll = -flow.log_prob(x).mean()
            optimizer.zero_grad()
            nll.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {b} nll {nll.item():.4f}")


if __name__ == "__main__":
    train()
