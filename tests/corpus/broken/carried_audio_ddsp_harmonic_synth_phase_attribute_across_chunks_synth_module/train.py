"""Train a control network that drives a harmonic synthesiser, chunk by chunk.

Each "note" is rendered in consecutive chunks (as a real-time plugin would): the network reads
the conditioning features of a chunk (pitch track from a tracker, loudness), predicts a pitch
correction and harmonic amplitudes, and the synthesiser renders the chunk continuing from the
phase where the previous chunk ended. A multi-resolution spectral loss compares the chunk with
the recorded audio.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from synth import HOP, SAMPLE_RATE, HarmonicSynth

N_HARMONICS = 8
FRAMES_PER_CHUNK = 8
CHUNKS_PER_NOTE = 4


class ControlNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.to_cents = nn.Linear(hidden, 1)
        self.to_amps = nn.Linear(hidden, N_HARMONICS)

    def forward(self, pitch_hz, loudness):
        x = torch.stack([torch.log2(pitch_hz / 440.0), loudness], dim=-1)
        h = self.body(x)
        cents = 50.0 * torch.tanh(self.to_cents(h)).squeeze(-1)
        f0 = pitch_hz * torch.pow(2.0, cents / 1200.0)
        amps = F.softplus(self.to_amps(h)) * loudness.unsqueeze(-1).exp() * 0.1
        return f0, amps


def spectral_loss(pred, target):
    loss = 0.0
    for n_fft in (64, 128):
        window = torch.hann_window(n_fft)
        sp = torch.stft(pred, n_fft, hop_length=n_fft // 4, window=window, return_complex=True).abs()
        st = torch.stft(target, n_fft, hop_length=n_fft // 4, window=window, return_complex=True).abs()
        loss = loss + F.l1_loss(sp, st) + F.l1_loss(torch.log(sp + 1e-5), torch.log(st + 1e-5))
    return loss


def make_note(batch, generator):
    """A recorded note: slightly detuned pitch track plus its audio, split into chunks."""
    frames = FRAMES_PER_CHUNK * CHUNKS_PER_NOTE
    base = 180.0 + 120.0 * torch.rand(batch, 1, generator=generator)
    vibrato = 1.0 + 0.01 * torch.sin(torch.linspace(0, 6.28, frames)).unsqueeze(0)
    true_f0 = base * vibrato
    tracked = true_f0 * (1.0 + 0.02 * torch.randn(batch, frames, generator=generator))
    loudness = -1.0 + 0.3 * torch.rand(batch, frames, generator=generator)
    t = torch.cumsum(2 * math.pi * torch.repeat_interleave(true_f0, HOP, dim=1) / SAMPLE_RATE, dim=1)
    audio = 0.3 * torch.sin(t) + 0.1 * torch.sin(2 * t) + 0.05 * torch.sin(3 * t)
    return tracked, loudness, audio


class Trainer:
    def __init__(self):
        self.net = ControlNet()
        self.synth = HarmonicSynth(N_HARMONICS)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=3e-3)
        self.gen = torch.Generator().manual_seed(3)

    def train_note(self, note_idx, batch=4):
        pitch, loudness, audio = make_note(batch, self.gen)
        self.synth.reset(batch)
        for c in range(CHUNKS_PER_NOTE):
            frames = slice(c * FRAMES_PER_CHUNK, (c + 1) * FRAMES_PER_CHUNK)
            samples = slice(c * FRAMES_PER_CHUNK * HOP, (c + 1) * FRAMES_PER_CHUNK * HOP)
            f0, amps = self.net(pitch[:, frames], loudness[:, frames])
            rendered = self.synth(f0, amps)
            loss = spectral_loss(rendered, audio[:, samples])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"note {note_idx} chunk {c} spectral loss {loss.item():.4f}")


def main():
    torch.manual_seed(0)
    trainer = Trainer()
    for note_idx in range(2):
        trainer.train_note(note_idx)


if __name__ == "__main__":
    main()
