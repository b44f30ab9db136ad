"""A tiny magnitude-mask separator: encoder -> per-source masks -> masked mixture."""
import torch
import torch.nn as nn


class MaskEstimator(nn.Module):
    def __init__(self, n_freq, n_sources, hidden=32):
        super().__init__()
        self.n_sources = n_sources
        self.encoder = nn.GRU(n_freq, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, n_freq * n_sources)

    def forward(self, mix_mag):
        b, t, f = mix_mag.shape
        h, _ = self.encoder(torch.log1p(mix_mag))
        logits = self.proj(h).view(b, t, self.n_sources, f)
        # masks of all sources sum to one in every bin
        masks = torch.softmax(logits, dim=2).detach()
        return masks


class Separator(nn.Module):
    def __init__(self, n_freq=16, n_sources=2):
        super().__init__()
        self.masker = MaskEstimator(n_freq, n_sources)

    def forward(self, mix_mag):
        masks = self.masker(mix_mag)
        return masks * mix_mag.unsqueeze(2)
