"""MLP GAN on an 8-mode ring. D scores the fake batch once and errG reuses that output;
retain_graph=True was added to errD.backward() so the second backward would be allowed."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
NZ, BATCH = 4, 64


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(NZ, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2))
        self.fc = nn.Linear(32, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc(self.main(x)))


def real_batch(n):
    k = torch.randint(0, 8, (n,)).float() * (2 * math.pi / 8)
    return torch.stack([k.cos(), k.sin()], 1) * 2 + 0.05 * torch.randn(n, 2)


netG, netD = Generator(), Discriminator()
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_label = torch.ones(BATCH, 1)
fake_label = torch.zeros(BATCH, 1)

for i in range(5):
    real = real_batch(BATCH)
    noise = torch.randn(BATCH, NZ)

    # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    errD_real = criterion(netD(real), real_label)
    fake = netG(noise)
    output = netD(fake)
    errD_fake = criterion(output, fake_label)
    errD = errD_real + errD_fake
    errD.backward(retain_graph=True)

    # (2) update G: maximize log(D(G(z))), reusing D's output on the fake batch
    netG.zero_grad()
    errG = criterion(output, real_label)
    errG.backward(inputs=list(netG.parameters()))  # D keeps only errD's gradient
    # D steps once errG no longer needs its current weights
    optimizerD.step()
    optimizerG.step()

print(f"Loss_D {errD.item():.4f} Loss_G {errG.item():.4f}")
