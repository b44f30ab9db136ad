"""RealNVP with Glow-style ActNorm on 4-D data. ActNorm initialises its
shift and scale from the first batch (data-dependent init) by writing into
its parameters under torch.no_grad(); couplings accumulate log-determinants
with in-place adds on a fresh buffer."""
import math

import torch
import torch.nn as nn

DIM = 4


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))
        self.register_buffer("initialized", torch.tensor(False))

    def forward(self, x, log_det):
        if not self.initialized:
            with torch.no_grad():
                self.loc.copy_(-x.mean(0))
                self.log_scale.copy_(-torch.log(x.std(0) + 1e-6))
                self.initialized.fill_(True)
        log_det += self.log_scale.sum()
        return (x + self.loc) * torch.exp(self.log_scale), log_det


class Coupling(nn.Module):
    def __init__(self, parity):
        super().__init__()
        self.parity = parity
        self.net = nn.Sequential(nn.Linear(DIM // 2, 32), nn.ReLU(), nn.Linear(32, DIM))

    def forward(self, x, log_det):
        a, b = x.chunk(2, dim=1)
        if self.parity:
            a, b = b, a
        log_s, t = self.net(a).chunk(2, dim=1)
        log_s = torch.tanh(log_s)
        b = b * torch.exp(log_s) + t
        log_det += log_s.sum(1)
        out = torch.cat([b, a] if self.parity else [a, b], dim=1)
        return out, log_det


class RealNVP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList()
        for i in range(3):
            self.layers.append(ActNorm(DIM))
            self.layers.append(Coupling(i % 2))

    def log_prob(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, log_det = layer(x, log_det)
        return -0.5 * (x ** 2).sum(1) - 0.5 * DIM * math.log(2 * math.pi) + log_det


torch.manual_seed(0)
g = torch.Generator().manual_seed(2)
A = torch.randn(DIM, DIM, generator=g)
data = [torch.tanh(torch.randn(128, DIM, generator=g) @ A) * 3 + 2 for _ in range(4)]
flow = RealNVP()
opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
for epoch in range(2):
    for x in data:
        loss = -flow.log_prob(x).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} nll {loss.item():.4f}")
print("checksum", round(sum(p.sum().item() for p in flow.parameters()), 4))
