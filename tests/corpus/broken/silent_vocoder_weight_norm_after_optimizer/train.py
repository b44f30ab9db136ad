"""Vocoder training step: L1 on the waveform plus an L1 on STFT magnitudes. The
reparametrization is switched on from the config after the model is built."""
import math

import torch
import torch.nn.functional as F

from model import N_MELS, TinyGenerator

torch.manual_seed(0)
FRAMES, HOP, BATCH = 8, 16, 4
config = {"use_weight_norm": True, "lr": 2e-3}


def make_batch():
    """Harmonic tones and a crude 'mel' conditioning computed from their frequency."""
    f0 = 2 + 6 * torch.rand(BATCH, 1)
    t = torch.arange(FRAMES * HOP) / (FRAMES * HOP)
    audio = 0.5 * torch.sin(2 * math.pi * f0 * t) + 0.2 * torch.sin(4 * math.pi * f0 * t)
    bands = torch.linspace(2, 8, N_MELS)
    mel = torch.exp(-(bands[None, :, None] - f0[:, :, None]) ** 2).expand(-1, -1, FRAMES)
    return mel.contiguous(), audio


def stft_mag(x):
    window = torch.hann_window(32)
    return torch.stft(x, 32, hop_length=8, window=window, return_complex=True).abs()


generator = TinyGenerator()
optimizer = torch.optim.AdamW(generator.parameters(), lr=config["lr"], betas=(0.8, 0.99))
if config["use_weight_norm"]:
    generator.apply_weight_norm()

for step in range(6):
    mel, audio = make_batch()
    fake = generator(mel)
    loss = F.l1_loss(fake, audio) + F.l1_loss(stft_mag(fake), stft_mag(audio))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
