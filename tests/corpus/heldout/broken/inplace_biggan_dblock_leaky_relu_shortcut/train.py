"""Tiny non-saturating GAN on damped sine bursts."""
import torch
import torch.nn.functional as F

from nets import NZ, SIGNAL_LEN, Discriminator, Generator

torch.manual_seed(0)
BATCH = 16


def real_batch(n):
    t = torch.linspace(0, 1, SIGNAL_LEN)
    freq = torch.randint(2, 6, (n, 1)).float()
    return torch.sin(2 * torch.pi * freq * t) * torch.exp(-3 * t)


netG, netD = Generator(), Discriminator()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.0, 0.9))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.0, 0.9))

for it in range(5):
    real = real_batch(BATCH)
    fake = netG(torch.randn(BATCH, NZ))

    optD.zero_grad()
    lossD = F.softplus(-netD(real)).mean() + F.softplus(netD(fake.detach())).mean()
    lossD.backward()
    optD.step()

    optG.zero_grad()
    lossG = F.softplus(-netD(fake)).mean()
    lossG.backward()
    optG.step()
    print(f"iter {it} lossD {lossD.item():.4f} lossG {lossG.item():.4f}")
