"""Planar normalizing flow layers (Rezende & Mohamed, 2015)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PlanarFlow(nn.Module):
    """f(z) = z + u * tanh(w.z + b), kept invertible by enforcing w.u >= -1."""

    def __init__(self, dim):
        super().__init__()
        self.w = nn.Parameter(0.5 * torch.randn(dim))
        self.u = nn.Parameter(0.5 * torch.randn(dim))
        self.b = nn.Parameter(torch.zeros(1))

    def forward(self, z):
        h = torch.tanh(z @ self.w + self.b)
        z_new = z + self.u * h[:, None]
        psi = (1 - h ** 2)[:, None] * self.w
        log_det = torch.log(torch.abs(1 + psi @ self.u) + 1e-8)
        self.enforce_invertibility()
        return z_new, log_det

    @torch.no_grad()
    def enforce_invertibility(self):
        """Project u so that w.u >= -1 (appendix A.1 of the paper)."""
        wu = torch.dot(self.w, self.u)
        m_wu = -1 + F.softplus(wu)
        self.u.add_((m_wu - wu) * self.w / self.w.pow(2).sum())


class PlanarFlowStack(nn.Module):
    def __init__(self, dim, n_layers):
        super().__init__()
        self.layers = nn.ModuleList(PlanarFlow(dim) for _ in range(n_layers))

    def forward(self, z):
        total_log_det = torch.zeros(z.shape[0])
        for layer in self.layers:
            z, log_det = layer(z)
            total_log_det = total_log_det + log_det
        return z, total_log_det


def standard_normal_log_prob(z):
    return -0.5 * (z ** 2).sum(dim=1) - 0.5 * z.shape[1] * math.log(2 * math.pi)
