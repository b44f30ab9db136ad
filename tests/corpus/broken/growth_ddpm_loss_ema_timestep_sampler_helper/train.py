"""Tiny DDPM on 2-D points sampled from a noisy ring. The denoiser is an MLP that takes
the noisy point and a sinusoidal timestep embedding; timesteps are drawn by a loss-aware
sampler (sampler.py) that is fed the per-sample losses after every step."""
import math

import torch
import torch.nn as nn

from sampler import LossEMASampler

torch.manual_seed(0)
T, BATCH, STEPS, EMB = 50, 128, 10, 16
betas = torch.linspace(1e-4, 0.05, T)
alpha_bar = torch.cumprod(1 - betas, dim=0)


def timestep_embedding(t):
    freqs = torch.exp(-math.log(1000.0) * torch.arange(EMB // 2) / (EMB // 2))
    args = t.float()[:, None] * freqs[None, :]
    return torch.cat([args.sin(), args.cos()], dim=1)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + EMB, 64), nn.SiLU(),
                                 nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 2))

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, timestep_embedding(t)], dim=1))


def ring_points(n):
    angle = 2 * math.pi * torch.rand(n)
    return torch.stack([angle.cos(), angle.sin()], dim=1) + 0.05 * torch.randn(n, 2)


model = Denoiser()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
sampler = LossEMASampler(T)
for step in range(STEPS):
    x0 = ring_points(BATCH)
    t, weights = sampler.sample(BATCH)
    noise = torch.randn_like(x0)
    ab = alpha_bar[t][:, None]
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
    per_sample = (model(x_t, t) - noise).pow(2).mean(dim=1)
    loss = (weights * per_sample).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    sampler.update(t, per_sample)
    bins = " ".join(f"{v:.3f}" for v in sampler.loss_ema.tolist())
    print(f"step {step} loss {loss.item():.4f} bin loss ema [{bins}]")
