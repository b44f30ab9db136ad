"""Small conditional noise-prediction network for vector data."""
import math

import torch
import torch.nn as nn


class TimestepEmbedding(nn.Module):
    """Sinusoidal features followed by an MLP. There are only a few distinct timesteps, so
    the sinusoidal features are computed once and memoised."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))
        self._cache = {}

    def sinusoid(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half) / half)
        angles = t * freqs
        return torch.cat([angles.sin(), angles.cos()])

    def embed_one(self, t):
        if t not in self._cache:
            self._cache[t] = self.sinusoid(t)
        return self.mlp(self._cache[t])

    def forward(self, timesteps):
        return torch.stack([self.embed_one(int(t)) for t in timesteps])


class ConditionalDenoiser(nn.Module):
    def __init__(self, data_dim, hidden):
        super().__init__()
        self.time_embed = TimestepEmbedding(hidden)
        self.inp = nn.Linear(data_dim, hidden)
        self.block = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                   nn.Linear(hidden, hidden))
        self.out = nn.Linear(hidden, data_dim)

    def forward(self, x_t, t, cond):
        h = self.inp(x_t) + self.time_embed(t) + cond
        return self.out(h + self.block(h))
