"""RealNVP/Glow-style building blocks for 2-D density estimation."""
import math

import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    """Transforms one half of the features conditioned on the other half."""

    def __init__(self, dim, hidden=32, flip=False):
        super().__init__()
        self.flip = flip
        half = dim // 2
        self.net = nn.Sequential(
            nn.Linear(half, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2 * (dim - half)),
        )

    def forward(self, x):
        x_a, x_b = x.chunk(2, dim=1)
        if self.flip:
            x_a, x_b = x_b, x_a
        shift, raw_scale = self.net(x_a).chunk(2, dim=1)
        scale = torch.sigmoid(raw_scale + 2.0)
        scale = scale + 1e-6  # keep log(scale) finite
        y_b = (x_b + shift) * scale
        log_det = torch.log(scale).sum(dim=1)
        out = torch.cat([y_b, x_a] if self.flip else [x_a, y_b], dim=1)
        return out, log_det


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        y = (x + self.loc) * torch.exp(self.log_scale)
        return y, self.log_scale.sum().expand(x.shape[0])


class Flow(nn.Module):
    def __init__(self, dim=2, n_blocks=3):
        super().__init__()
        layers = []
        for i in range(n_blocks):
            layers += [ActNorm(dim), AffineCoupling(dim, flip=bool(i % 2))]
        self.layers = nn.ModuleList(layers)

    def log_prob(self, x):
        total_log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, log_det = layer(x)
            total_log_det = total_log_det + log_det
        base = -0.5 * (x ** 2).sum(dim=1) - x.shape[1] * 0.5 * math.log(2 * math.pi)
        return base + total_log_det
