"""DDPM-style denoiser on a 2-D "two moons" point cloud. fit() smooths the training loss with an
exponential moving average and stops early once the smoothed loss has not improved for a few
steps."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T_STEPS, BATCH = 50, 128
betas = torch.linspace(1e-4, 0.05, T_STEPS)
alpha_bar = torch.cumprod(1 - betas, dim=0)


def two_moons(n):
    theta = math.pi * torch.rand(n)
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(theta), 1 - torch.cos(theta))
    y = torch.where(upper, torch.sin(theta), 0.5 - torch.sin(theta))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.time_embed = nn.Embedding(T_STEPS, hidden)
        self.inp = nn.Linear(2, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                  nn.Linear(hidden, 2))

    def forward(self, x_t, t):
        return self.body(self.inp(x_t) + self.time_embed(t))


def fit(model, max_steps=40, patience=4, smoothing=0.7):
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    smoothed, best, bad_steps = None, float("inf"), 0
    for step in range(max_steps):
        x0 = two_moons(BATCH)
        t = torch.randint(0, T_STEPS, (BATCH,))
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None]
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        loss = F.mse_loss(model(x_t, t), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        smoothed = loss if smoothed is None else smoothing * smoothed + (1 - smoothing) * loss
        if smoothed < best - 1e-3:
            best, bad_steps = smoothed, 0
        else:
            bad_steps += 1
        if step % 5 == 0:
            print(f"step {step:2d}  loss {loss.item():.4f}  smoothed {float(smoothed):.4f}")
        if bad_steps >= patience:
            print(f"early stop at step {step}")
            break
    return float(best)


model = Denoiser()
print(f"best smoothed loss {fit(model):.4f}")
