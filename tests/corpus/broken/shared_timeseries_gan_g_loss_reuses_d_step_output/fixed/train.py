"""GAN for short sensor traces: an MLP generator maps noise to a 32-step sequence and a
1-D conv discriminator scores sequences. One D update and one G update per batch."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GanConfig:
    seq_len: int = 32
    noise_dim: int = 8
    batch: int = 16
    steps: int = 5
    lr: float = 2e-4


class Generator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(cfg.noise_dim, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, cfg.seq_len), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
                                  nn.Conv1d(8, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2))
        self.fc = nn.Linear(16 * cfg.seq_len // 4, 1)

    def forward(self, seq):
        return self.fc(self.conv(seq.unsqueeze(1)).flatten(1)).squeeze(-1)


def real_traces(cfg):
    phase = 2 * math.pi * torch.rand(cfg.batch, 1)
    t = torch.linspace(0, 2 * math.pi, cfg.seq_len)
    return 0.8 * torch.sin(t + phase) + 0.05 * torch.randn(cfg.batch, cfg.seq_len)


def train(cfg=GanConfig()):
    torch.manual_seed(0)
    G, D = Generator(cfg), Discriminator(cfg)
    opt_g = torch.optim.Adam(G.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    ones, zeros = torch.ones(cfg.batch), torch.zeros(cfg.batch)
    for step in range(cfg.steps):
        real = real_traces(cfg)
        fake = G(torch.randn(cfg.batch, cfg.noise_dim))

        d_real = D(real)
        d_fake = D(fake.detach())
        d_loss = F.binary_cross_entropy_with_logits(d_real, ones) + \
            F.binary_cross_entropy_with_logits(d_fake, zeros)
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"step {step} d {d_loss.item():.4f} g {g_loss.item():.4f}")


if __name__ == "__main__":
    train()
