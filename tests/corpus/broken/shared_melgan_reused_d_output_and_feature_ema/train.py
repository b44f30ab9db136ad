"""Toy MelGAN-style vocoder: a 1-D conv generator upsamples mel frames to a waveform and is
trained with a non-saturating GAN loss, an L1 waveform loss and mean feature matching."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, HOP, BATCH = 4, 6, 4, 3


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.Conv1d(N_MELS, 16, 3, padding=1)
        self.up = nn.ConvTranspose1d(16, 8, HOP, stride=HOP)
        self.post = nn.Conv1d(8, 1, 3, padding=1)

    def forward(self, mel):
        return torch.tanh(self.post(F.leaky_relu(self.up(F.leaky_relu(self.pre(mel), 0.2)), 0.2)))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(1, 8, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
                                  nn.Conv1d(8, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2))
        self.score = nn.Conv1d(16, 1, 3, padding=1)

    def forward(self, wav):
        feat = self.body(wav)
        return self.score(feat), feat


class VocoderTrainer:
    def __init__(self):
        self.G, self.D = Generator(), Discriminator()
        self.opt_G = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.5, 0.9))
        self.opt_D = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.5, 0.9))
        self.real_feat_ema = torch.zeros(16)

    def train_step(self, mel, real):
        fake = self.G(mel)
        d_real, f_real = self.D(real)
        d_fake, f_fake = self.D(fake)
        d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
        self.opt_D.zero_grad()
        d_loss.backward()
        self.opt_D.step()

        self.real_feat_ema = 0.9 * self.real_feat_ema + 0.1 * f_real.mean((0, 2))
        fm = F.l1_loss(f_fake.mean((0, 2)), self.real_feat_ema)
        g_loss = F.softplus(-d_fake).mean() + 10.0 * fm + 5.0 * F.l1_loss(fake, real)
        self.opt_G.zero_grad()
        g_loss.backward()
        self.opt_G.step()
        return d_loss.item(), g_loss.item()


def toy_pair():
    t = torch.arange(FRAMES * HOP, dtype=torch.float32)
    freq = torch.rand(BATCH, 1) * 0.5 + 0.2
    wav = 0.6 * torch.sin(freq * t).unsqueeze(1)
    mel = wav.view(BATCH, FRAMES, HOP).abs().mean(-1, keepdim=True).transpose(1, 2).repeat(1, N_MELS, 1)
    return mel, wav


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = VocoderTrainer()
    for step in range(4):
        d, g = trainer.train_step(*toy_pair())
        print(f"step {step}: D {d:.4f} G {g:.4f}")
