"""Waveform speech enhancer: a small conv net denoises the pre-emphasised waveform, its
output is de-emphasised back to a waveform and trained with L1 plus a multi-resolution
STFT magnitude loss against the clean speech."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from dsp import deemphasis, preemphasis, stft_mag

SR, N_SAMPLES = 8000, 128


class ConvEnhancer(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, ch, 9, padding=4), nn.PReLU(ch),
            nn.Conv1d(ch, ch, 9, padding=8, dilation=2), nn.PReLU(ch),
            nn.Conv1d(ch, 1, 9, padding=4))

    def forward(self, noisy_pre):
        return noisy_pre - self.net(noisy_pre.unsqueeze(1)).squeeze(1)


def utterances(n, gen):
    t = torch.arange(N_SAMPLES) / SR
    f0 = 100 + 120 * torch.rand(n, 1, generator=gen)
    clean = sum(torch.sin(2 * math.pi * k * f0 * t) / k for k in range(1, 5)) * 0.3
    clean = clean * torch.hann_window(N_SAMPLES)
    noisy = clean + 0.05 * torch.randn(n, N_SAMPLES, generator=gen)
    return noisy, clean


def multires_stft_loss(est, ref, sizes=(16, 32, 64)):
    total = 0.0
    for n_fft in sizes:
        s_est, s_ref = stft_mag(est, n_fft), stft_mag(ref, n_fft)
        sc = torch.linalg.norm(s_ref - s_est) / torch.linalg.norm(s_ref)
        log_mag = F.l1_loss(s_est.log(), s_ref.log())
        total = total + sc + log_mag
    return total / len(sizes)


def train(epochs=3, batch_size=8):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    noisy, clean = utterances(16, gen)
    model = ConvEnhancer()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    for epoch in range(epochs):
        for start in range(0, len(noisy), batch_size):
            est_pre = model(preemphasis(noisy[start:start + batch_size]))
            est = deemphasis(est_pre)
            ref = clean[start:start + batch_size]
            loss = F.l1_loss(est, ref) + multires_stft_loss(est, ref)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
