"""A small RealNVP for 2-D data: affine couplings with alternating masks."""
import math

import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden, flip):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(dim // 2, hidden), nn.ReLU(), nn.Linear(hidden, dim))

    def _split(self, x):
        a, b = x.chunk(2, dim=1)
        return (b, a) if self.flip else (a, b)

    def _merge(self, a, b):
        return torch.cat([b, a], dim=1) if self.flip else torch.cat([a, b], dim=1)

    def forward(self, x):
        """data -> latent, with log|det J|."""
        a, b = self._split(x)
        s, t = self.net(a).chunk(2, dim=1)
        s = torch.tanh(s)
        return self._merge(a, b * torch.exp(s) + t), s.sum(dim=1)

    def inverse(self, y):
        """latent -> data."""
        a, b = self._split(y)
        s, t = self.net(a).chunk(2, dim=1)
        s = torch.tanh(s)
        return self._merge(a, (b - t) * torch.exp(-s))


class RealNVP(nn.Module):
    def __init__(self, dim=2, hidden=32, n_layers=4):
        super().__init__()
        self.dim = dim
        self.layers = nn.ModuleList(AffineCoupling(dim, hidden, flip=i % 2 == 1) for i in range(n_layers))

    def log_prob(self, x):
        log_det = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        base = -0.5 * (x ** 2).sum(dim=1) - 0.5 * self.dim * math.log(2 * math.pi)
        return base + log_det

    def sample(self, n):
        x = torch.randn(n, self.dim)
        for layer in reversed(self.layers):
            x = layer.inverse(x)
        return x
