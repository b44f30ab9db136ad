"""MLP noise predictor for a 2-D DDPM: sinusoidal timestep features go through a small
learned MLP and are added to every residual block."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.no_grad()
def timestep_embedding(t, time_mlp, dim=32, max_period=10_000):
    """Sinusoidal features of the integer timesteps, projected by the model's time MLP."""
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return time_mlp(torch.cat([torch.cos(args), torch.sin(args)], dim=-1))


class ResidualBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, width)
        self.fc2 = nn.Linear(width, width)

    def forward(self, h, temb):
        return h + self.fc2(F.silu(self.fc1(self.norm(h) + temb)))


class Denoiser(nn.Module):
    def __init__(self, width=64, n_blocks=2, t_dim=32):
        super().__init__()
        self.t_dim = t_dim
        self.time_mlp = nn.Sequential(nn.Linear(t_dim, width), nn.SiLU(), nn.Linear(width, width))
        self.inp = nn.Linear(2, width)
        self.blocks = nn.ModuleList(ResidualBlock(width) for _ in range(n_blocks))
        self.out = nn.Linear(width, 2)

    def forward(self, x, t):
        temb = timestep_embedding(t, self.time_mlp, self.t_dim)
        h = self.inp(x)
        for block in self.blocks:
            h = block(h, temb)
        return self.out(h)
