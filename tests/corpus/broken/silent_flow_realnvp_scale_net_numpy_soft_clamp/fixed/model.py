"""RealNVP-style affine coupling flow for 2-D data. Each coupling layer keeps one coordinate
and transforms the other with a log-scale and a shift predicted from the kept one; the
log-scale is soft-clamped so exp() cannot overflow early in training."""
import math

import torch
import torch.nn as nn

SCALE_BOUND = 2.0


def soft_clamp(raw, bound=SCALE_BOUND):
    """bound * tanh(raw / bound): smooth, keeps log-scales in (-bound, bound)."""
    return bound * torch.tanh(raw / bound)


class AffineCoupling(nn.Module):
    def __init__(self, flip, hidden=32):
        super().__init__()
        self.flip = flip
        self.scale_net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.shift_net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        keep, move = (x[:, 1:], x[:, :1]) if self.flip else (x[:, :1], x[:, 1:])
        log_s = soft_clamp(self.scale_net(keep))
        moved = move * torch.exp(log_s) + self.shift_net(keep)
        out = torch.cat([moved, keep], dim=1) if self.flip else torch.cat([keep, moved], dim=1)
        return out, log_s.sum(dim=1)


class RealNVP2D(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList(AffineCoupling(flip=i % 2 == 1) for i in range(n_layers))

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det

    def nll(self, x):
        z, log_det = self(x)
        log_pz = -0.5 * (z ** 2).sum(dim=1) - math.log(2 * math.pi)
        return -(log_pz + log_det).mean()
