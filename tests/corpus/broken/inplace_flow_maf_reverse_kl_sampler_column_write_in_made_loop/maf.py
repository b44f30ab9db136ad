"""Masked autoregressive flow (MAF) built from MADE blocks. Sampling runs the slow,
sequential direction: column i of x is produced from the columns before it."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedLinear(nn.Linear):
    def __init__(self, in_features, out_features, mask):
        super().__init__(in_features, out_features)
        self.register_buffer("mask", mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


class MADE(nn.Module):
    """Outputs (mu, alpha) for every dimension; output i only sees inputs < i."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.dim = dim
        in_deg = torch.arange(dim)
        hid_deg = torch.arange(hidden) % max(dim - 1, 1)
        out_deg = torch.arange(dim).repeat(2)
        self.inp = MaskedLinear(dim, hidden, (hid_deg[:, None] >= in_deg[None, :]).float())
        self.out = MaskedLinear(hidden, 2 * dim, (out_deg[:, None] > hid_deg[None, :]).float())

    def forward(self, x):
        mu, alpha = self.out(torch.relu(self.inp(x))).chunk(2, dim=1)
        return mu, torch.tanh(alpha)


class MAFLayer(nn.Module):
    def __init__(self, dim, hidden, reverse):
        super().__init__()
        self.made = MADE(dim, hidden)
        self.reverse = reverse

    def sample(self, u):
        """u -> x, one column at a time; returns x and log|dx/du|."""
        x = torch.zeros_like(u)
        for i in range(u.size(1)):
            mu, alpha = self.made(x)
            x[:, i] = u[:, i] * torch.exp(alpha[:, i]) + mu[:, i]
        log_det = alpha.sum(dim=1)
        return (x.flip(1) if self.reverse else x), log_det


class MAF(nn.Module):
    def __init__(self, dim=4, hidden=24, n_layers=2):
        super().__init__()
        self.dim = dim
        self.layers = nn.ModuleList(MAFLayer(dim, hidden, reverse=i % 2 == 0) for i in range(n_layers))

    def sample_with_log_prob(self, n):
        u = torch.randn(n, self.dim)
        log_q = -0.5 * (u ** 2).sum(dim=1) - 0.5 * self.dim * math.log(2 * math.pi)
        x = u
        for layer in self.layers:
            x, log_det = layer.sample(x)
            log_q = log_q - log_det
        return x, log_q
