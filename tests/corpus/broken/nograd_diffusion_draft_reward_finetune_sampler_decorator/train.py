"""Toy 2-D diffusion model: a short denoising pre-training, then reward fine-tuning by
backpropagating a differentiable reward through the DDIM sampling chain (DRaFT-style).
The reward asks for samples on a ring of radius RING."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from sampling import T, alpha_bars, ddim_sample

RING = 1.5


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + 8, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, x, t):
        freqs = torch.exp(torch.arange(4) * -math.log(100.0) / 4)
        angles = t.float().unsqueeze(1) * freqs
        return self.net(torch.cat([x, angles.sin(), angles.cos()], dim=1))


def two_blobs(n, g):
    centers = torch.tensor([[-1.0, 0.0], [1.0, 0.0]])
    return centers[torch.randint(0, 2, (n,), generator=g)] + 0.2 * torch.randn(n, 2, generator=g)


def ring_reward(x):
    return -(x.norm(dim=1) - RING) ** 2


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
model = Denoiser()
pre_opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(3):
    x0 = two_blobs(128, g)
    t = torch.randint(0, T, (128,), generator=g)
    noise = torch.randn(128, 2, generator=g)
    a = alpha_bars[t].unsqueeze(1)
    loss = F.mse_loss(model(a.sqrt() * x0 + (1 - a).sqrt() * noise, t), noise)
    pre_opt.zero_grad()
    loss.backward()
    pre_opt.step()
    print(f"pretrain {step}: mse {loss.item():.4f}")

ft_opt = torch.optim.Adam(model.parameters(), lr=5e-4)
for step in range(4):
    samples = ddim_sample(model, 64, steps=4, generator=g)
    loss = -ring_reward(samples).mean()
    ft_opt.zero_grad()
    loss.backward()
    ft_opt.step()
    print(f"finetune {step}: reward {-loss.item():.4f}")

final = ddim_sample(model, 256, steps=4, generator=g)
print(f"mean radius {final.norm(dim=1).mean().item():.4f}")
