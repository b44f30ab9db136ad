"""Planar normalizing-flow layers (Rezende & Mohamed, 2015)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PlanarFlow(nn.Module):
    """f(z) = z + u_hat * tanh(w.z + b), with u_hat constrained so that w.u_hat >= -1."""

    def __init__(self, dim):
        super().__init__()
        self.w = nn.Parameter(torch.randn(dim) * 0.5)
        self.u = nn.Parameter(torch.randn(dim) * 0.5)
        self.b = nn.Parameter(torch.zeros(1))
        self.last_log_det = None

    def u_hat(self):
        wu = self.w @ self.u
        return self.u + (F.softplus(wu) - 1 - wu) * self.w / (self.w @ self.w)

    def forward(self, z):
        u = self.u_hat()
        h = torch.tanh(z @ self.w + self.b)
        out = z + h.unsqueeze(1) * u
        psi = (1 - h ** 2).unsqueeze(1) * self.w
        log_det = torch.log((1 + psi @ u).abs() + 1e-6)
        # kept so the trainer can watch how close each layer gets to a fold
        self.last_log_det = log_det
        return out, log_det


class PlanarFlowStack(nn.Module):
    def __init__(self, dim, n_layers):
        super().__init__()
        self.layers = nn.ModuleList(PlanarFlow(dim) for _ in range(n_layers))

    def forward(self, z):
        sum_log_det = torch.zeros(z.shape[0])
        for layer in self.layers:
            z, log_det = layer(z)
            sum_log_det = sum_log_det + log_det
        return z, sum_log_det
