"""A small RealNVP for 2-D data: affine couplings with alternating masks."""
import math

import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    def __init__(self, mask, hidden=32):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 4))

    def _params(self, x_masked):
        s, t = self.net(x_masked).chunk(2, dim=1)
        return torch.tanh(s) * (1 - self.mask), t * (1 - self.mask)

    def forward(self, x):
        """data -> latent, with log|det J|."""
        s, t = self._params(x * self.mask)
        z = x * self.mask + (1 - self.mask) * ((x - t) * torch.exp(-s))
        return z, -s.sum(1)

    def inverse(self, z):
        """latent -> data (the generator direction)."""
        s, t = self._params(z * self.mask)
        return z * self.mask + (1 - self.mask) * (z * torch.exp(s) + t)


class RealNVP2d(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0])
                 for i in range(n_layers)]
        self.layers = nn.ModuleList(AffineCoupling(m) for m in masks)

    def log_prob(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        base = -0.5 * (x ** 2).sum(1) - math.log(2 * math.pi)
        return base + log_det

    def sample(self, n):
        z = torch.randn(n, 2)
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z
