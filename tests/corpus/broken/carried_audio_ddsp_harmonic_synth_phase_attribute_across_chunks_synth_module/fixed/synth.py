"""A tiny differentiable harmonic synthesiser (DDSP style).

The oscillator bank keeps its running phase between calls so that consecutive chunks of one
note join without clicks: the phase at the end of a chunk is where the next chunk starts.
"""
import math

import torch
import torch.nn as nn

SAMPLE_RATE = 8000
HOP = 64


class HarmonicSynth(nn.Module):
    def __init__(self, n_harmonics):
        super().__init__()
        self.n_harmonics = n_harmonics
        self.register_buffer("harmonic_numbers", torch.arange(1, n_harmonics + 1).float())
        self.phase = None

    def reset(self, batch_size):
        self.phase = torch.zeros(batch_size, 1)

    def forward(self, f0_hz, amplitudes):
        """f0_hz: (B, frames), amplitudes: (B, frames, K) -> audio (B, frames * HOP)."""
        f0 = torch.repeat_interleave(f0_hz, HOP, dim=1)
        amps = torch.repeat_interleave(amplitudes, HOP, dim=1)
        omega = 2 * math.pi * f0 / SAMPLE_RATE
        phase = self.phase + torch.cumsum(omega, dim=1)
        # keep the oscillator running into the next chunk
        self.phase = torch.remainder(phase[:, -1:].detach(), 2 * math.pi)
        partials = torch.sin(phase.unsqueeze(-1) * self.harmonic_numbers)
        above_nyquist = (f0.unsqueeze(-1) * self.harmonic_numbers) > SAMPLE_RATE / 2
        partials = partials.masked_fill(above_nyquist, 0.0)
        return (partials * amps).sum(-1)
