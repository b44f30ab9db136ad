"""MLP GAN on a 2-D ring, organised as a GANTrainer with one method per network update."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
Z_DIM, BATCH = 4, 32


def sample_ring(n):
    theta = torch.rand(n) * 2 * math.pi
    return torch.stack([theta.cos(), theta.sin()], dim=1) + 0.05 * torch.randn(n, 2)


class GANTrainer:
    def __init__(self):
        self.netG = nn.Sequential(nn.Linear(Z_DIM, 32), nn.Tanh(), nn.Linear(32, 2))
        self.netD = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.opt_g = torch.optim.Adam(self.netG.parameters(), lr=1e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.netD.parameters(), lr=1e-3, betas=(0.5, 0.999))

    def _update_discriminator(self, real, fake):
        self.opt_d.zero_grad()
        real_logits = self.netD(real)
        fake_logits = self.netD(fake.detach())
        d_loss = (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                  + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def _update_generator(self, fake):
        self.opt_g.zero_grad()
        logits = self.netD(fake)
        g_loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()

    def train_step(self, real):
        fake = self.netG(torch.randn(real.size(0), Z_DIM))
        d_loss = self._update_discriminator(real, fake)
        g_loss = self._update_generator(fake)
        return d_loss, g_loss


trainer = GANTrainer()
for step in range(5):
    d_loss, g_loss = trainer.train_step(sample_ring(BATCH))
print(f"d_loss {d_loss:.4f} g_loss {g_loss:.4f}")
