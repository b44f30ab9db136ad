"""Tiny DDPM on a 2-D two-moons point cloud: an MLP denoiser learns to predict the noise
that was added at a random timestep. predict_noise() comes from the shared diffusion module
so that training and sampling call the denoiser the same way."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from diffusion import T_STEPS, predict_noise, q_sample, sample

torch.manual_seed(0)
DIM = 2


def make_moons(n):
    theta = torch.rand(n) * math.pi
    upper = torch.stack([theta.cos(), theta.sin()], dim=1)
    lower = torch.stack([1.0 - theta.cos(), 0.5 - theta.sin()], dim=1)
    points = torch.where(torch.rand(n, 1) < 0.5, upper, lower)
    return points + 0.05 * torch.randn(n, DIM)


def train(steps=6, batch=64):
    denoiser = nn.Sequential(
        nn.Linear(DIM + 1, 64), nn.SiLU(),
        nn.Linear(64, 64), nn.SiLU(),
        nn.Linear(64, DIM),
    )
    optimizer = torch.optim.Adam(denoiser.parameters(), lr=2e-3)
    data = make_moons(512)
    for step in range(steps):
        x0 = data[torch.randint(0, len(data), (batch,))]
        t = torch.randint(0, T_STEPS, (batch,))
        noise = torch.randn_like(x0)
        x_t = q_sample(x0, t, noise)
        eps_hat = predict_noise(denoiser, x_t, t)
        loss = F.mse_loss(eps_hat, noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    return denoiser


model = train()
samples = sample(model, 16, DIM)
print("sample mean " + " ".join(f"{v:.3f}" for v in samples.mean(0).tolist()))
