"""SN-GAN on an 8-mode ring of Gaussians: non-saturating loss, Adam with beta1 = 0.5."""
import math

import torch
import torch.nn.functional as F

from model import Discriminator, make_generator

torch.manual_seed(0)
Z_DIM, BATCH, STEPS = 8, 64, 5


def sample_ring(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,)).float()
    angle = 2 * math.pi * k / modes
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


G, D = make_generator(Z_DIM), Discriminator()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))

for step in range(STEPS):
    real = sample_ring(BATCH)
    fake = G(torch.randn(BATCH, Z_DIM))

    d_real = D(real)
    d_fake = D(fake.detach())
    d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_loss = F.softplus(-D(fake)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")

print(f"mean |fake| {fake.detach().norm(dim=1).mean().item():.4f}")
