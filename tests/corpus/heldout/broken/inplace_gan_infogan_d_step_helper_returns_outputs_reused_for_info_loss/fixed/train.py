"""InfoGAN on a 2-D mixture of 4 Gaussians: a categorical latent code should pick the mode.
The Q head shares the discriminator body and is trained together with the generator."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from steps import discriminator_step, info_generator_step

torch.manual_seed(0)
N_CODES, NOISE, BATCH = 4, 6, 64
CENTERS = torch.tensor([[math.cos(a), math.sin(a)] for a in
                        (0, math.pi / 2, math.pi, 3 * math.pi / 2)]) * 2.0


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(NOISE + N_CODES, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, noise, codes):
        return self.net(torch.cat([noise, F.one_hot(codes, N_CODES).float()], 1))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 40),
                                  nn.LeakyReLU(0.2))
        self.d_head = nn.Linear(40, 1)
        self.q_head = nn.Linear(40, N_CODES)

    def forward(self, x):
        h = self.body(x)
        return self.d_head(h).squeeze(1), self.q_head(h)


netG, netD = Generator(), Discriminator()
opt_d = torch.optim.Adam(list(netD.body.parameters()) + list(netD.d_head.parameters()),
                         lr=2e-4, betas=(0.5, 0.999))
opt_g = torch.optim.Adam(list(netG.parameters()) + list(netD.q_head.parameters()),
                         lr=1e-3, betas=(0.5, 0.999))

for step in range(6):
    real = CENTERS[torch.randint(0, 4, (BATCH,))] + 0.1 * torch.randn(BATCH, 2)
    codes = torch.randint(0, N_CODES, (BATCH,))
    fake = netG(torch.randn(BATCH, NOISE), codes)
    d_loss = discriminator_step(netD, opt_d, real, fake)
    d_fake, q_fake = netD(fake)
    adv, info = info_generator_step(opt_g, d_fake, q_fake, codes)
    print(f"step {step} d {d_loss.item():.4f} g_adv {adv.item():.4f} info {info.item():.4f}")
