"""Tiny GAN on 8x8 synthetic 'blob' images in [0, 1]. The generator ends with nn.Tanh and a
forward hook maps its output to [0, 1] so real and fake images share a range."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import grad_norm, register_pixel_range_hook


@dataclass
class GANConfig:
    latent: int = 16
    side: int = 8
    batch: int = 32
    steps: int = 5
    lr: float = 2e-4


def real_blobs(n, side, gen):
    coords = torch.arange(side).float()
    cy = 1.5 + (side - 3) * torch.rand(n, 1, 1, generator=gen)
    cx = 1.5 + (side - 3) * torch.rand(n, 1, 1, generator=gen)
    d2 = (coords[None, :, None] - cy) ** 2 + (coords[None, None, :] - cx) ** 2
    return torch.exp(-d2 / 2.0).unsqueeze(1)


cfg = GANConfig()
torch.manual_seed(0)
gen = torch.Generator().manual_seed(1)
G = nn.Sequential(
    nn.Linear(cfg.latent, 128), nn.ReLU(),
    nn.Linear(128, cfg.side * cfg.side), nn.Unflatten(1, (1, cfg.side, cfg.side)), nn.Tanh())
D = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.LeakyReLU(0.2),
    nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
    nn.Flatten(), nn.Linear(32 * (cfg.side // 2) ** 2, 1))
register_pixel_range_hook(G[-1])

opt_g = torch.optim.Adam(G.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
ones, zeros = torch.ones(cfg.batch, 1), torch.zeros(cfg.batch, 1)

for step in range(cfg.steps):
    real = real_blobs(cfg.batch, cfg.side, gen)
    fake = G(torch.randn(cfg.batch, cfg.latent, generator=gen))

    d_loss = (F.binary_cross_entropy_with_logits(D(real), ones)
              + F.binary_cross_entropy_with_logits(D(fake.detach()), zeros))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} d {d_loss.item():.4f} g {g_loss.item():.4f} "
          f"|grad G| {grad_norm(G):.4f} fake range [{fake.min().item():.2f}, {fake.max().item():.2f}]")
