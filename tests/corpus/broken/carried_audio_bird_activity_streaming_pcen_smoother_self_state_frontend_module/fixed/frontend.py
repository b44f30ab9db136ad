"""Trainable per-channel energy normalisation (PCEN) for streaming use: the IIR smoother's
last value is kept on the module so that the next chunk of the same recording continues
the smoothing where the previous chunk stopped (as it would on a field recorder)."""
import math

import torch
import torch.nn as nn


class StreamingPCEN(nn.Module):
    def __init__(self, n_bands, s=0.04, alpha=0.9, delta=2.0, r=0.5, eps=1e-6):
        super().__init__()
        self.log_s = nn.Parameter(torch.full((n_bands,), math.log(s)))
        self.log_alpha = nn.Parameter(torch.full((n_bands,), math.log(alpha)))
        self.log_delta = nn.Parameter(torch.full((n_bands,), math.log(delta)))
        self.log_r = nn.Parameter(torch.full((n_bands,), math.log(r)))
        self.eps = eps
        self.smoother_state = None

    def reset_stream(self):
        self.smoother_state = None

    def forward(self, energy):
        """energy: (batch, frames, bands) mel energies -> PCEN features of the same shape."""
        s = self.log_s.exp().clamp(max=1.0)
        m = energy[:, 0] if self.smoother_state is None else self.smoother_state
        smoothed = []
        for t in range(energy.size(1)):
            m = (1 - s) * m + s * energy[:, t]
            smoothed.append(m)
        self.smoother_state = m.detach()
        smooth = torch.stack(smoothed, dim=1)
        alpha, delta, r = self.log_alpha.exp(), self.log_delta.exp(), self.log_r.exp()
        return (energy / (self.eps + smooth) ** alpha + delta) ** r - delta ** r
