"""MemAE for multivariate sensor windows: the encoder's latent is replaced by a sparse
combination of learned memory slots (an nn.Parameter, trained by backprop) with hard
shrinkage of the addressing weights. A separate non-parametric bank of normal prototypes is
kept by the trainer for the compactness term and for scoring."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryUnit(nn.Module):
    def __init__(self, n_slots, dim, shrink=0.02):
        super().__init__()
        self.memory = nn.Parameter(torch.randn(n_slots, dim) / dim ** 0.5)
        self.shrink = shrink

    def forward(self, z):
        w = F.softmax(z @ self.memory.t(), dim=1)
        w = F.relu(w - self.shrink) * w / ((w - self.shrink).abs() + 1e-12)  # hard shrinkage
        w = w / w.sum(dim=1, keepdim=True).clamp_min(1e-12)
        return w @ self.memory, w


class MemAE(nn.Module):
    def __init__(self, in_dim=20, latent=10, n_slots=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.Tanh(), nn.Linear(32, latent))
        self.mem = MemoryUnit(n_slots, latent)
        self.decoder = nn.Sequential(nn.Linear(latent, 32), nn.Tanh(), nn.Linear(32, in_dim))

    def forward(self, x):
        z = self.encoder(x)
        z_hat, w = self.mem(z)
        return self.decoder(z_hat), z, w
