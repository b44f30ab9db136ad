"""GAN on a 2-D ring of Gaussians, organised as a GANTrainer: generate() samples a batch of
fakes and keeps it on the trainer, then the discriminator step and the generator step both
score that batch."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

Z_DIM = 4


def ring_of_gaussians(n, modes=6, radius=2.0):
    k = torch.randint(0, modes, (n,)).float()
    centers = torch.stack([torch.cos(2 * math.pi * k / modes), torch.sin(2 * math.pi * k / modes)], 1)
    return radius * centers + 0.05 * torch.randn(n, 2)


class GANTrainer:
    def __init__(self, generator, discriminator, lr=1e-3):
        self.G, self.D = generator, discriminator
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=lr, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=lr, betas=(0.5, 0.999))
        self.fake = None
        self.history = []

    def generate(self, n):
        z = torch.randn(n, Z_DIM)
        self.fake = self.G(z)

    def discriminator_step(self, real):
        d_real = self.D(real)
        d_fake = self.D(self.fake.detach())
        loss = (F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
                + F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake)))
        self.opt_d.zero_grad()
        loss.backward()
        self.opt_d.step()
        return loss.item()

    def generator_step(self):
        d_fake = self.D(self.fake)
        loss = F.binary_cross_entropy_with_logits(d_fake, torch.ones_like(d_fake))
        self.opt_g.zero_grad()
        loss.backward()
        self.opt_g.step()
        return loss.item()

    def train_step(self, real):
        self.generate(real.size(0))
        d_loss = self.discriminator_step(real)
        g_loss = self.generator_step()
        self.history.append((d_loss, g_loss))
        return d_loss, g_loss


torch.manual_seed(0)
G = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
trainer = GANTrainer(G, D)
for it in range(5):
    d_loss, g_loss = trainer.train_step(ring_of_gaussians(64))
    print(f"iter {it} d_loss {d_loss:.4f} g_loss {g_loss:.4f}")
