"""AC-GAN on 1-D class-conditional waveforms (sine, square, sawtooth; 32 samples each).
The discriminator predicts real/fake and the class; the auxiliary classifier reads the
pre-activation features of the shared trunk."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, LENGTH, Z_DIM = 3, 32, 8


@dataclass
class Config:
    steps: int = 5
    batch: int = 24
    lr: float = 2e-4
    hidden: int = 64


def real_batch(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    phase = 2 * torch.pi * torch.rand(n, 1)
    t = torch.linspace(0, 4 * torch.pi, LENGTH)[None] + phase
    waves = torch.stack([torch.sin(t), torch.sign(torch.sin(t)), (t % (2 * torch.pi)) / torch.pi - 1], 1)
    return waves[torch.arange(n), labels], labels


class Generator(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.label_emb = nn.Embedding(N_CLASSES, Z_DIM)
        self.net = nn.Sequential(nn.Linear(Z_DIM, hidden), nn.ReLU(), nn.Linear(hidden, LENGTH),
                                 nn.Tanh())

    def forward(self, z, labels):
        return self.net(z * self.label_emb(labels))


class Discriminator(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(LENGTH, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, hidden))
        self.aux_head = nn.Linear(hidden, N_CLASSES)
        self.src_head = nn.Linear(hidden, 1)

    def forward(self, x):
        feat = self.trunk(x)
        class_logits = self.aux_head(feat)
        h = F.leaky_relu(feat, 0.2, inplace=True)
        return self.src_head(h).squeeze(1), class_logits


def train(cfg):
    G, D = Generator(cfg.hidden), Discriminator(cfg.hidden)
    opt_g = torch.optim.Adam(G.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    ones, zeros = torch.ones(cfg.batch), torch.zeros(cfg.batch)
    for step in range(cfg.steps):
        real, labels = real_batch(cfg.batch)
        fake_labels = torch.randint(0, N_CLASSES, (cfg.batch,))
        fake = G(torch.randn(cfg.batch, Z_DIM), fake_labels)

        src_real, cls_real = D(real)
        src_fake, cls_fake = D(fake.detach())
        d_loss = (F.binary_cross_entropy_with_logits(src_real, ones)
                  + F.binary_cross_entropy_with_logits(src_fake, zeros)
                  + F.cross_entropy(cls_real, labels) + F.cross_entropy(cls_fake, fake_labels))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        src_gen, cls_gen = D(fake)
        g_loss = F.binary_cross_entropy_with_logits(src_gen, ones) + F.cross_entropy(cls_gen, fake_labels)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")


if __name__ == "__main__":
    train(Config())
