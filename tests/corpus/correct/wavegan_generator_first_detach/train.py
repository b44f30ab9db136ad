"""Tiny 1-D WaveGAN-style model on synthetic tones, generator updated first.

One batch of fakes is generated per iteration. The generator is updated on it first
(discriminator frozen), then the discriminator is trained on the same fakes detached.
The fakes were produced by the pre-update generator, but once detached they are just
data, so the generator's optimizer step does not invalidate anything D needs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6)
LATENT, WAVE_LEN, BATCH = 8, 64, 10


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(LATENT, 16 * 16)
        self.up = nn.Sequential(
            nn.ConvTranspose1d(16, 8, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose1d(8, 1, 4, stride=2, padding=1), nn.Tanh())

    def forward(self, z):
        return self.up(F.relu(self.fc(z)).view(-1, 16, 16))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, 8, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
            nn.Conv1d(8, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(16 * 16, 1))

    def forward(self, wave):
        return self.net(wave)


def tones(n):
    t = torch.linspace(0, 1, WAVE_LEN)
    freq = torch.randint(3, 9, (n, 1)).float()
    return (0.8 * torch.sin(2 * torch.pi * freq * t)).unsqueeze(1)


G, D = Generator(), Discriminator()
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)

for it in range(6):
    real = tones(BATCH)
    fake = G(torch.randn(BATCH, LATENT))

    D.requires_grad_(False)
    g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

    D.requires_grad_(True)
    d_loss = (F.binary_cross_entropy_with_logits(D(real), ones)
              + F.binary_cross_entropy_with_logits(D(fake.detach()), zeros)) / 2
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    print(f"iter {it} g_loss {g_loss.item():.6f} d_loss {d_loss.item():.6f} "
          f"fake rms {fake.detach().pow(2).mean().sqrt().item():.6f}")

print(f"checksum {sum(p.sum().item() for p in [*G.parameters(), *D.parameters()]):.6f}")
