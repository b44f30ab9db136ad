"""Non-saturating GAN on a ring of 2-D Gaussians. The trainer scores the fake batch with the
discriminator once and hands the same scores to both players to save a forward pass."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
LATENT, DATA_DIM, HIDDEN = 8, 2, 64


def sample_ring(n, modes=8, radius=2.0, std=0.05):
    idx = torch.randint(0, modes, (n,))
    angle = idx.float() * (2 * math.pi / modes)
    centers = torch.stack([angle.cos(), angle.sin()], dim=1) * radius
    return centers + std * torch.randn(n, DATA_DIM)


class GANTrainer:
    def __init__(self, lr=2e-4):
        self.netG = nn.Sequential(
            nn.Linear(LATENT, HIDDEN), nn.ReLU(),
            nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
            nn.Linear(HIDDEN, DATA_DIM),
        )
        self.netD = nn.Sequential(
            nn.Linear(DATA_DIM, HIDDEN), nn.LeakyReLU(0.2),
            nn.Linear(HIDDEN, HIDDEN), nn.LeakyReLU(0.2),
            nn.Linear(HIDDEN, 1),
        )
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=lr, betas=(0.5, 0.999))
        self.criterion = nn.BCEWithLogitsLoss()
        self.history = {"loss_d": [], "loss_g": []}

    def discriminator_step(self, real, d_fake):
        d_real = self.netD(real)
        loss_d = (self.criterion(d_real, torch.ones_like(d_real))
                  + self.criterion(d_fake, torch.zeros_like(d_fake)))
        self.optD.zero_grad()
        loss_d.backward()
        self.optD.step()
        return loss_d.item()

    def generator_step(self, d_fake):
        loss_g = self.criterion(d_fake, torch.ones_like(d_fake))
        self.optG.zero_grad()
        loss_g.backward()
        self.optG.step()
        return loss_g.item()

    def train(self, iterations=6, batch=64):
        for it in range(iterations):
            real = sample_ring(batch)
            fake = self.netG(torch.randn(batch, LATENT))
            self.history["loss_d"].append(self.discriminator_step(real, self.netD(fake.detach())))
            self.history["loss_g"].append(self.generator_step(self.netD(fake)))
            print(f"iter {it} loss_D {self.history['loss_d'][-1]:.4f} "
                  f"loss_G {self.history['loss_g'][-1]:.4f}")


if __name__ == "__main__":
    GANTrainer().train()
