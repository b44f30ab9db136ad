"""Tiny 1-D GAN that synthesises single ECG beats (P-QRS-T shaped curves)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
BEAT_LEN = 48
LATENT = 8


def make_beats(n):
    t = torch.linspace(0, 1, BEAT_LEN)
    shift = 0.03 * torch.randn(n, 1)
    amp = 1.0 + 0.1 * torch.randn(n, 1)
    qrs = amp * torch.exp(-((t - 0.45 - shift) ** 2) / 0.0008)
    p_wave = 0.15 * torch.exp(-((t - 0.2 - shift) ** 2) / 0.004)
    t_wave = 0.3 * torch.exp(-((t - 0.7 - shift) ** 2) / 0.006)
    return qrs + p_wave + t_wave + 0.02 * torch.randn(n, BEAT_LEN)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(LATENT, 32)
        self.fc2 = nn.Linear(32, BEAT_LEN)

    def forward(self, z):
        return self.fc2(torch.tanh(self.fc1(z)))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(BEAT_LEN, 32)
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        return self.head(F.leaky_relu(self.body(x), 0.2))


class BeatGANTrainer:
    def __init__(self, batch_size=16):
        self.batch_size = batch_size
        self.G = Generator()
        self.D = Discriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.ones = torch.ones(batch_size, 1)
        self.zeros = torch.zeros(batch_size, 1)

    def step(self, real):
        z = torch.randn(self.batch_size, LATENT)
        fake = self.G(z)
        d_real = self.D(real)
        d_fake = self.D(fake)

        d_loss = (F.binary_cross_entropy_with_logits(d_real, self.ones)
                  + F.binary_cross_entropy_with_logits(d_fake, self.zeros))
        self.opt_d.zero_grad()
        d_loss.backward(retain_graph=True)
        self.opt_d.step()

        d_fake = self.D(fake)  # re-score with the updated discriminator
        smooth = F.mse_loss(fake[:, 1:], fake[:, :-1])
        g_loss = F.binary_cross_entropy_with_logits(d_fake, self.ones) + 0.1 * smooth
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return d_loss.item(), g_loss.item()

    def fit(self, steps):
        for it in range(steps):
            d, g = self.step(make_beats(self.batch_size))
            print(f"iter {it}: d_loss={d:.4f} g_loss={g:.4f}")


if __name__ == "__main__":
    BeatGANTrainer().fit(steps=5)
