"""ProGAN-flavoured MLP GAN on a 2-D mixture of eight Gaussians on a ring. The generator
uses equalized-lr layers with pixel normalisation after every block; the discriminator is
a plain equalized-lr MLP. Standard non-saturating loss, D step then G step."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import EqualLinear, GeneratorBlock, PixelNorm

torch.manual_seed(0)
Z_DIM, BATCH, STEPS = 8, 128, 6


def eight_gaussians(n):
    k = torch.randint(0, 8, (n,)).float()
    centers = torch.stack([torch.cos(k * math.pi / 4), torch.sin(k * math.pi / 4)], dim=1) * 2
    return centers + 0.05 * torch.randn(n, 2)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_norm = PixelNorm()
        self.blocks = nn.Sequential(GeneratorBlock(Z_DIM, 64), GeneratorBlock(64, 64))
        self.to_xy = EqualLinear(64, 2)

    def forward(self, z):
        return self.to_xy(self.blocks(self.input_norm(z)))


G = Generator()
D = nn.Sequential(EqualLinear(2, 64), nn.LeakyReLU(0.2), EqualLinear(64, 64), nn.LeakyReLU(0.2),
                  EqualLinear(64, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.99))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.99))

for step in range(STEPS):
    real = eight_gaussians(BATCH)
    fake = G(torch.randn(BATCH, Z_DIM))

    d_loss = F.softplus(D(fake.detach())).mean() + F.softplus(-D(real)).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_loss = F.softplus(-D(fake)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f} "
          f"fake radius {fake.norm(dim=1).mean().item():.3f}")
