"""GAN for synthetic daily electricity load curves (24 hourly values). The loop updates the
generator first and then reuses the same generated batch for the discriminator; the
generator's backward keeps the graph (retain_graph=True) because the discriminator loss
goes through the fake batch again."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
HOURS, NOISE, BATCH = 24, 8, 32


class LoadGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(NOISE, 64), nn.LeakyReLU(0.2),
                                  nn.Linear(64, 64), nn.LeakyReLU(0.2))
        self.out = nn.Linear(64, HOURS)

    def forward(self, z):
        return torch.tanh(self.out(self.body(z)))


class ConvCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.LeakyReLU(0.2),
                                  nn.Conv1d(8, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2))
        self.fc = nn.Linear(16 * HOURS // 2, 1)

    def forward(self, x):
        return self.fc(self.conv(x.unsqueeze(1)).flatten(1))


def real_load_curves(n):
    hours = torch.arange(HOURS, dtype=torch.float32)
    morning = torch.exp(-0.5 * ((hours - 8 - torch.randn(n, 1)) / 1.5) ** 2)
    evening = torch.exp(-0.5 * ((hours - 19 - torch.randn(n, 1)) / 2.0) ** 2)
    base = 0.2 + 0.1 * torch.sin(2 * math.pi * hours / HOURS)
    curve = base + 0.5 * morning + 0.7 * evening + 0.03 * torch.randn(n, HOURS)
    return curve / curve.amax(dim=1, keepdim=True) * 1.6 - 0.8


netG, netD = LoadGenerator(), ConvCritic()
optG = torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)

for it in range(6):
    real = real_load_curves(BATCH)
    fake = netG(torch.randn(BATCH, NOISE))

    # generator update: make D call the fake curves real
    optG.zero_grad()
    g_loss = bce(netD(fake), ones)
    g_loss.backward(retain_graph=True)
    optG.step()

    # discriminator update on the same batch
    optD.zero_grad()
    d_loss = bce(netD(real), ones) + bce(netD(fake), zeros)
    d_loss.backward()
    optD.step()

    peak_hour = fake.detach().mean(0).argmax().item()
    print(f"iter {it} g_loss {g_loss.item():.4f} d_loss {d_loss.item():.4f} peak hour {peak_hour}")
