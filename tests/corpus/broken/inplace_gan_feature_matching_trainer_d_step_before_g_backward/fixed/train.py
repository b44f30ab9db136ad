"""GAN with a feature-matching generator objective (Salimans et al., 2016) on a 2-D
spiral. The discriminator is run once per batch on real and fake samples; its features
are reused for the generator's loss to save a forward pass."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GANConfig:
    nz: int = 8
    hidden: int = 64
    batch: int = 64
    lr_d: float = 2e-4
    lr_g: float = 1e-3
    steps: int = 6


class Discriminator(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2),
                                   nn.Linear(hidden, hidden), nn.LeakyReLU(0.2))
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        feat = self.trunk(x)
        return feat, self.head(feat)


class FeatureMatchingGAN:
    def __init__(self, cfg: GANConfig):
        self.cfg = cfg
        self.G = nn.Sequential(nn.Linear(cfg.nz, cfg.hidden), nn.ReLU(),
                               nn.Linear(cfg.hidden, cfg.hidden), nn.ReLU(),
                               nn.Linear(cfg.hidden, 2))
        self.D = Discriminator(cfg.hidden)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=cfg.lr_g, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=cfg.lr_d, betas=(0.5, 0.999))

    def step(self, real):
        z = torch.randn(real.shape[0], self.cfg.nz)
        fake = self.G(z)
        feat_real, logit_real = self.D(real)
        _, logit_fake = self.D(fake.detach())

        loss_d = (F.binary_cross_entropy_with_logits(logit_real, torch.ones_like(logit_real))
                  + F.binary_cross_entropy_with_logits(logit_fake, torch.zeros_like(logit_fake)))
        self.opt_d.zero_grad()
        loss_d.backward()
        self.opt_d.step()

        # generator: match the mean discriminator features of the real batch
        feat_fake, _ = self.D(fake)  # fresh forward through the updated D
        loss_g = F.mse_loss(feat_fake.mean(0), feat_real.mean(0).detach())
        self.opt_g.zero_grad()
        loss_g.backward()
        self.opt_g.step()
        return loss_d.item(), loss_g.item()


def spiral(n, gen):
    t = 3 * math.pi * torch.rand(n, generator=gen)
    pts = torch.stack([t * torch.cos(t), t * torch.sin(t)], dim=1) / (3 * math.pi)
    return pts + 0.03 * torch.randn(n, 2, generator=gen)


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    cfg = GANConfig()
    gan = FeatureMatchingGAN(cfg)
    for it in range(cfg.steps):
        d_loss, g_loss = gan.step(spiral(cfg.batch, gen))
        print(f"iter {it} loss_D {d_loss:.4f} loss_G {g_loss:.5f}")
