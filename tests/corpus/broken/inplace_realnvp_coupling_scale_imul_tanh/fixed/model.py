"""RealNVP-style affine coupling flow for 2-D toy densities."""
import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    """Transforms one half of the input conditioned on the other half."""

    def __init__(self, dim, hidden, flip):
        super().__init__()
        half = dim // 2
        self.flip = flip
        self.net = nn.Sequential(
            nn.Linear(half, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2 * half),
        )
        self.scale = nn.Parameter(torch.ones(half))

    def forward(self, x):
        x_a, x_b = x.chunk(2, dim=1)
        if self.flip:
            x_a, x_b = x_b, x_a
        s, t = self.net(x_a).chunk(2, dim=1)
        s = torch.tanh(s)
        s = s * self.scale
        y_b = x_b * torch.exp(s) + t
        out = torch.cat([y_b, x_a] if self.flip else [x_a, y_b], dim=1)
        return out, s.sum(dim=1)


class RealNVP(nn.Module):
    def __init__(self, dim=2, hidden=32, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList(
            AffineCoupling(dim, hidden, flip=i % 2 == 1) for i in range(n_layers))
        self.register_buffer("loc", torch.zeros(dim))

    def forward(self, x):
        log_det = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det

    def log_prob(self, x):
        z, log_det = self(x)
        base = torch.distributions.Normal(self.loc, 1.0).log_prob(z).sum(dim=1)
        return base + log_det
