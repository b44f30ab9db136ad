"""InfoGAN on 1-D waveforms: the generator gets noise plus a categorical code (which of three
waveform families to draw) and the Q head of the discriminator has to recover the code."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import discriminator_loss, generator_info_loss


@dataclass
class InfoGANConfig:
    noise_dim: int = 6
    n_codes: int = 3
    length: int = 24
    hidden: int = 32
    batch: int = 16
    steps: int = 5
    lr: float = 2e-4
    info_weight: float = 1.0


class Generator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_codes = cfg.n_codes
        self.net = nn.Sequential(
            nn.Linear(cfg.noise_dim + cfg.n_codes, cfg.hidden), nn.ReLU(),
            nn.Linear(cfg.hidden, cfg.length), nn.Tanh())

    def forward(self, z, codes):
        return self.net(torch.cat([z, F.one_hot(codes, self.n_codes).float()], dim=1))


class Discriminator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(cfg.length, cfg.hidden), nn.LeakyReLU(0.2))
        self.adv = nn.Linear(cfg.hidden, 1)
        self.q = nn.Linear(cfg.hidden, cfg.n_codes)

    def forward(self, x):
        h = self.body(x)
        return self.adv(h).squeeze(1), self.q(h)


def real_waveforms(cfg):
    t = torch.linspace(0, 1, cfg.length)
    family = torch.randint(0, 3, (cfg.batch, 1))
    freq = 1.0 + 2.0 * torch.rand(cfg.batch, 1)
    sine = torch.sin(6.283 * freq * t)
    square = torch.sign(sine)
    saw = 2 * torch.frac(freq * t) - 1
    return torch.where(family == 0, sine, torch.where(family == 1, square, saw))


def main(cfg=InfoGANConfig()):
    torch.manual_seed(0)
    netG, netD = Generator(cfg), Discriminator(cfg)
    opt_D = torch.optim.Adam(list(netD.body.parameters()) + list(netD.adv.parameters()),
                             lr=cfg.lr, betas=(0.5, 0.999))
    opt_G = torch.optim.Adam(list(netG.parameters()) + list(netD.q.parameters()),
                             lr=cfg.lr, betas=(0.5, 0.999))
    for step in range(cfg.steps):
        real = real_waveforms(cfg)
        z = torch.randn(cfg.batch, cfg.noise_dim)
        codes = torch.randint(0, cfg.n_codes, (cfg.batch,))
        fake = netG(z, codes)

        opt_D.zero_grad()
        loss_D = discriminator_loss(netD, real, fake)
        loss_D.backward()
        opt_D.step()

        opt_G.zero_grad()
        loss_G, info = generator_info_loss(netD, fake, codes, cfg.info_weight)
        loss_G.backward()
        opt_G.step()
        print(f"step {step} D {loss_D.item():.4f} G {loss_G.item():.4f} info {info.item():.4f}")


if __name__ == "__main__":
    main()
