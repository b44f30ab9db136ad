"""Glow-lite on 6-D tabular sensor data: ActNorm + affine coupling blocks with
reversing permutations, trained by maximum likelihood."""
import math

import torch
import torch.nn as nn

from utils import bits_per_dim, guard_loss

DIM = 6


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return (x + self.loc) * torch.exp(self.log_scale), self.log_scale.sum().expand(x.shape[0])


class Coupling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.half = dim // 2
        self.nn = nn.Sequential(nn.Linear(self.half, 32), nn.ReLU(), nn.Linear(32, 2 * (dim - self.half)))

    def forward(self, x):
        xa, xb = x[:, :self.half], x[:, self.half:]
        log_s, t = self.nn(xa).chunk(2, dim=1)
        log_s = torch.tanh(log_s)
        yb = xb * torch.exp(log_s) + t
        return torch.cat([xa, yb], 1).flip(1), log_s.sum(1)


class GlowLite(nn.Module):
    def __init__(self, dim=DIM, n_blocks=3):
        super().__init__()
        self.blocks = nn.ModuleList()
        for _ in range(n_blocks):
            self.blocks.append(ActNorm(dim))
            self.blocks.append(Coupling(dim))

    def log_prob(self, x):
        total = torch.zeros(x.shape[0])
        for block in self.blocks:
            x, ld = block(x)
            total = total + ld
        return -0.5 * (x ** 2).sum(1) - 0.5 * DIM * math.log(2 * math.pi) + total


torch.manual_seed(0)
g = torch.Generator().manual_seed(8)
mix = torch.randn(DIM, DIM, generator=g) * 0.5 + torch.eye(DIM)
batches = [torch.randn(64, DIM, generator=g) @ mix + 1.0 for _ in range(3)]

flow = GlowLite()
optimizer = torch.optim.Adam(flow.parameters(), lr=2e-3)

for epoch in range(2):
    for step, x in enumerate(batches):
        nll = -flow.log_prob(x).mean()
        loss = guard_loss(nll)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} step {step} nll {nll.item():.4f} "
              f"bpd {bits_per_dim(nll.item(), DIM):.4f}")

print("checksum", round(sum(p.sum().item() for p in flow.parameters()), 4))
