"""1-D U-Net that removes broadband noise from short synthetic speech-like waveforms.
The skip path takes the pre-activation encoder features through a 1x1 projection; one
shared in-place ReLU module is reused for every activation to keep memory down."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLES, CH = 64, 8


class DenoiseUNet1d(nn.Module):
    def __init__(self, ch=CH):
        super().__init__()
        self.act = nn.ReLU()
        self.enc1 = nn.Conv1d(1, ch, 5, padding=2)
        self.enc2 = nn.Conv1d(ch, 2 * ch, 5, stride=2, padding=2)
        self.skip_proj = nn.Conv1d(ch, ch, 1)
        self.dec = nn.ConvTranspose1d(2 * ch, ch, 4, stride=2, padding=1)
        self.head = nn.Conv1d(2 * ch, 1, 5, padding=2)

    def forward(self, noisy):
        e1 = self.enc1(noisy)
        skip = self.skip_proj(e1)
        e1 = self.act(e1)
        e2 = self.act(self.enc2(e1))
        d1 = self.act(self.dec(e2))
        return noisy - self.head(torch.cat([d1, skip], dim=1))  # predict the noise


def make_batch(n, gen):
    t = torch.arange(SAMPLES) / SAMPLES
    f0 = 2 + 6 * torch.rand(n, 1, generator=gen)
    envelope = torch.sin(math.pi * t) ** 2
    clean = envelope * (torch.sin(2 * math.pi * f0 * t) + 0.4 * torch.sin(4 * math.pi * f0 * t))
    noisy = clean + 0.3 * torch.randn(n, SAMPLES, generator=gen)
    return noisy.unsqueeze(1), clean.unsqueeze(1)


def si_snr(est, ref, eps=1e-8):
    ref = ref - ref.mean(-1, keepdim=True)
    est = est - est.mean(-1, keepdim=True)
    proj = (est * ref).sum(-1, keepdim=True) / (ref.pow(2).sum(-1, keepdim=True) + eps) * ref
    noise = est - proj
    return 10 * torch.log10(proj.pow(2).sum(-1) / (noise.pow(2).sum(-1) + eps) + eps)


def train(epochs=2, batches=3):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = DenoiseUNet1d()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(epochs):
        for _ in range(batches):
            noisy, clean = make_batch(16, gen)
            denoised = model(noisy)
            loss = F.l1_loss(denoised, clean)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} l1 {loss.item():.4f} si-snr {si_snr(denoised, clean).mean().item():.2f} dB")


if __name__ == "__main__":
    train()
