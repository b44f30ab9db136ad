"""Affine coupling flow whose conditioner is a stack of gated pre-activation residual blocks."""
import math

import torch
import torch.nn as nn


class GatedResBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gate = nn.Linear(dim, dim)
        self.branch = nn.Sequential(nn.ReLU(inplace=True), nn.Linear(dim, dim), nn.ReLU(),
                                    nn.Linear(dim, dim))

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        return x + g * self.branch(x)


class Conditioner(nn.Module):
    def __init__(self, d_in, d_out, hidden=32, n_blocks=2):
        super().__init__()
        self.inp = nn.Linear(d_in, hidden)
        self.blocks = nn.Sequential(*[GatedResBlock(hidden) for _ in range(n_blocks)])
        self.out = nn.Linear(hidden, 2 * d_out)

    def forward(self, x):
        return self.out(self.blocks(self.inp(x))).chunk(2, dim=-1)


class AffineCoupling(nn.Module):
    def __init__(self, dim, flip):
        super().__init__()
        self.flip, self.half = flip, dim // 2
        self.cond = Conditioner(self.half, dim - self.half)

    def forward(self, x):
        if self.flip:
            x = x.flip(-1)
        a, b = x[:, :self.half], x[:, self.half:]
        log_s, t = self.cond(a)
        log_s = torch.tanh(log_s)
        y = torch.cat([a, b * log_s.exp() + t], -1)
        if self.flip:
            y = y.flip(-1)
        return y, log_s.sum(-1)


class RealNVP(nn.Module):
    def __init__(self, dim=2, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList(AffineCoupling(dim, flip=i % 2 == 1) for i in range(n_layers))

    def log_prob(self, x):
        logdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        base = -0.5 * (x ** 2).sum(-1) - x.shape[1] * 0.5 * math.log(2 * math.pi)
        return base + logdet
