"""Class-conditional GAN for single ECG beats (normal / premature ventricular / bundle-branch
block), hinge loss, two discriminator steps per generator step. One generator pass per
iteration is reused: detached for every discriminator step, and scored again by the
discriminator (after its steps) for the generator loss."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
BEAT_LEN, NOISE, CLASSES, BATCH, N_CRITIC = 64, 8, 3, 32, 2


class BeatGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(CLASSES, 8)
        self.fc = nn.Sequential(nn.Linear(NOISE + 8, 16 * 16), nn.ReLU())
        self.up = nn.Sequential(
            nn.ConvTranspose1d(16, 16, 4, stride=2, padding=1), nn.BatchNorm1d(16), nn.ReLU(),
            nn.ConvTranspose1d(16, 1, 4, stride=2, padding=1), nn.Tanh())

    def forward(self, z, y):
        h = self.fc(torch.cat([z, self.label_emb(y)], -1)).view(-1, 16, 16)
        return self.up(h).squeeze(1)


class ProjectionDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
            nn.Conv1d(16, 32, 5, stride=2, padding=2), nn.LeakyReLU(0.2))
        self.fc = nn.Linear(32, 1)
        self.class_proj = nn.Embedding(CLASSES, 32)

    def forward(self, beat, y):
        h = self.conv(beat.unsqueeze(1)).mean(-1)
        return self.fc(h).squeeze(-1) + (self.class_proj(y) * h).sum(-1)


def ecg_beats(n):
    y = torch.randint(0, CLASSES, (n,))
    t = torch.linspace(-1, 1, BEAT_LEN)
    width = torch.tensor([0.04, 0.12, 0.08])[y].unsqueeze(1)
    amp = torch.tensor([1.0, 1.4, 0.8])[y].unsqueeze(1)
    qrs = amp * torch.exp(-(t / width) ** 2)
    t_wave = 0.3 * torch.exp(-((t - 0.45) / 0.15) ** 2) * torch.where(y == 1, -1.0, 1.0).unsqueeze(1)
    p_wave = 0.15 * torch.exp(-((t + 0.45) / 0.1) ** 2) * (y != 1).float().unsqueeze(1)
    return (qrs + t_wave + p_wave + 0.03 * torch.randn(n, BEAT_LEN)).clamp(-1, 1), y


def train(iters=5):
    G, D = BeatGenerator(), ProjectionDiscriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
    for it in range(iters):
        z = torch.randn(BATCH, NOISE)
        y_fake = torch.randint(0, CLASSES, (BATCH,))
        fake = G(z, y_fake)
        for _ in range(N_CRITIC):
            real, y_real = ecg_beats(BATCH)
            d_loss = (F.relu(1 - D(real, y_real)).mean()
                      + F.relu(1 + D(fake.detach(), y_fake)).mean())
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()

        g_loss = -D(fake, y_fake).mean()  # fresh pass through the updated D
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"iter {it} d_loss {d_loss.item():.5f} g_loss {g_loss.item():.5f}")

    G.eval()
    with torch.no_grad():
        beats = G(torch.randn(6, NOISE), torch.arange(6) % CLASSES)
    print(f"generated peak per class {[round(v, 4) for v in beats.amax(1).tolist()]}")
    checksum = sum(p.detach().double().sum().item()
                   for m in (G, D) for p in m.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
