import math

import torch
import torch.nn as nn

from losses import LogMagnitudeLoss

N_FFT, HOP, LENGTH = 32, 8, 256


def stft(x):
    return torch.stft(x, N_FFT, hop_length=HOP, window=torch.hann_window(N_FFT), return_complex=True)


class ComplexMaskNet(nn.Module):
    """Predicts a complex ratio mask for the vocal stem from the mixture spectrogram."""

    def __init__(self, bins=N_FFT // 2 + 1, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(bins, hidden), nn.ReLU(), nn.Linear(hidden, 2 * bins))

    def forward(self, mix_spec):
        feat = torch.log1p(mix_spec.abs()).transpose(1, 2)
        m_re, m_im = self.net(feat).transpose(1, 2).chunk(2, dim=1)
        est_re = m_re * mix_spec.real - m_im * mix_spec.imag
        est_im = m_re * mix_spec.imag + m_im * mix_spec.real
        return est_re, est_im


def toy_stems(gen, batch=4):
    t = torch.arange(LENGTH) / 8000.0
    f0 = 200 + 400 * torch.rand(batch, 1, generator=gen)
    vocals = sum(torch.sin(2 * math.pi * k * f0 * t) / k for k in (1, 2, 3))
    accomp = 0.3 * torch.randn(batch, LENGTH, generator=gen)
    return vocals + accomp, vocals


def make_step(model, opt, loss_fn):
    def step(mix, vocals):
        mix_spec, ref = stft(mix), stft(vocals)
        est_re, est_im = model(mix_spec)
        loss = loss_fn(est_re, est_im, ref.real, ref.imag)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.item()
    return step


torch.manual_seed(0)
gen = torch.Generator().manual_seed(9)
model = ComplexMaskNet()
step = make_step(model, torch.optim.Adam(model.parameters(), lr=2e-3), LogMagnitudeLoss())
for it in range(5):
    mix, vocals = toy_stems(gen)
    print(f"iter {it} log-mag l1 {step(mix, vocals):.4f}")
