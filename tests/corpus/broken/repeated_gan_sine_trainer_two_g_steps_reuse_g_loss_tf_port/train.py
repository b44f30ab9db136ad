"""1-D GAN on short sine-wave snippets, ported from a TensorFlow DCGAN script. The TF code
ran g_optim twice per batch "to make sure that d_loss does not go to zero"; the port keeps
that as g_steps=2 in the trainer."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SEQ, NZ = 32, 8


def sine_batch(n):
    freq = 1.0 + 2.0 * torch.rand(n, 1)
    phase = 2 * math.pi * torch.rand(n, 1)
    t = torch.linspace(0, 2 * math.pi, SEQ).unsqueeze(0)
    return torch.sin(freq * t + phase).unsqueeze(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(NZ, 16 * 8)
        self.net = nn.Sequential(
            nn.ConvTranspose1d(16, 8, 4, 2, 1), nn.BatchNorm1d(8), nn.ReLU(),
            nn.ConvTranspose1d(8, 1, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(self.fc(z).view(-1, 16, 8))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, 8, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv1d(8, 16, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(16 * 8, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


class GANTrainer:
    def __init__(self, g_steps=2, batch_size=32):
        self.G, self.D = Generator(), Discriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.g_steps = g_steps
        self.batch_size = batch_size

    def d_step(self, real, fake):
        self.opt_d.zero_grad()
        real_logits, fake_logits = self.D(real), self.D(fake.detach())
        d_loss = (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                  + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def train_batch(self, real):
        z = torch.randn(real.size(0), NZ)
        fake = self.G(z)
        d_loss = self.d_step(real, fake)
        logits = self.D(fake)
        g_loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
        for _ in range(self.g_steps):
            self.opt_g.zero_grad()
            g_loss.backward()
            self.opt_g.step()
        return d_loss, g_loss.item()

    def fit(self, iterations):
        for it in range(iterations):
            d_loss, g_loss = self.train_batch(sine_batch(self.batch_size))
            print(f"iter {it} d_loss {d_loss:.4f} g_loss {g_loss:.4f}")


GANTrainer().fit(4)
