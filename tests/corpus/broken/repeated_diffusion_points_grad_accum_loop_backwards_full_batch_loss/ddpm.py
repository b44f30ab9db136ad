"""DDPM pieces shared by the training scripts: a linear beta schedule, q(x_t | x_0), the denoiser."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearSchedule:
    def __init__(self, steps=100, beta_start=1e-4, beta_end=2e-2):
        self.steps = steps
        betas = torch.linspace(beta_start, beta_end, steps)
        self.alpha_bar = torch.cumprod(1.0 - betas, dim=0)

    def q_sample(self, x0, t, noise):
        ab = self.alpha_bar[t].unsqueeze(-1)
        return ab.sqrt() * x0 + (1.0 - ab).sqrt() * noise


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half) / half)
    args = t.float().unsqueeze(-1) * freqs
    return torch.cat([args.sin(), args.cos()], dim=-1)


class PointDenoiser(nn.Module):
    def __init__(self, dim=2, hidden=64, temb=16):
        super().__init__()
        self.temb = temb
        self.time_mlp = nn.Sequential(nn.Linear(temb, hidden), nn.SiLU())
        self.inp = nn.Linear(dim, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x_t, t):
        h = self.inp(x_t) + self.time_mlp(timestep_embedding(t, self.temb))
        return self.body(h)


def diffusion_loss(model, schedule, x0):
    t = torch.randint(0, schedule.steps, (x0.size(0),))
    noise = torch.randn_like(x0)
    x_t = schedule.q_sample(x0, t, noise)
    return F.mse_loss(model(x_t, t), noise)
