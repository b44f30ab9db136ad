"""Single-channel speech enhancement by magnitude masking: a GRU predicts a [0, 1] mask per
time-frequency bin from the noisy log-magnitude STFT. The mask is floored at -26 dB to limit
musical noise. Synthetic harmonic "voices" in white noise stand in for a corpus."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SR, SECONDS, N_FFT, HOP = 4000, 0.5, 128, 64
BINS = N_FFT // 2 + 1
MASK_FLOOR = 10 ** (-26 / 20)


def harmonic_voices(n, gen):
    t = torch.arange(int(SR * SECONDS)) / SR
    f0 = 120 + 80 * torch.rand(n, 1, generator=gen)
    clean = sum(torch.sin(2 * math.pi * k * f0 * t) / k for k in range(1, 5))
    clean = clean * (0.5 + 0.5 * torch.sin(2 * math.pi * 3 * t))
    noise = 0.4 * torch.randn(n, t.numel(), generator=gen)
    return clean, clean + noise


def magnitude(wave):
    spec = torch.stft(wave, N_FFT, HOP, window=torch.hann_window(N_FFT), return_complex=True)
    return spec.abs().transpose(1, 2)


class MaskEstimator(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.norm = nn.LayerNorm(BINS)
        self.rnn = nn.GRU(BINS, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, BINS)

    def forward(self, noisy_mag):
        feats = self.norm(torch.log1p(noisy_mag))
        h, _ = self.rnn(feats)
        mask = torch.sigmoid(self.proj(h))
        mask = F.hardtanh(mask, min_val=MASK_FLOOR, max_val=1.0)
        return mask


def compressed_mse(est_mag, clean_mag, power=0.3):
    return F.mse_loss(est_mag.clamp(min=1e-8) ** power, clean_mag ** power)


def main(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    model = MaskEstimator()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(steps):
        clean, noisy = harmonic_voices(6, gen)
        clean_mag, noisy_mag = magnitude(clean), magnitude(noisy)
        mask = model(noisy_mag)
        loss = compressed_mse(mask * noisy_mag, clean_mag)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        print(f"step {step} loss {loss.item():.5f} mean mask {mask.mean().item():.3f}")


if __name__ == "__main__":
    main()
