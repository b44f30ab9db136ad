"""Rotary position embedding (RoPE) with optionally learned frequencies.

The rotation angles only depend on the sequence length, so they are computed once and kept
in a cache that longer sequences extend.
"""
import torch
import torch.nn as nn


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, theta=10000.0, learned_freq=False):
        super().__init__()
        inv_freq = 1.0 / theta ** (torch.arange(0, dim, 2).float() / dim)
        self.freqs = nn.Parameter(inv_freq, requires_grad=learned_freq)
        self.learned_freq = learned_freq
        self.cached_angles = None

    def angles(self, seq_len):
        if self.cached_angles is not None and self.cached_angles.size(0) >= seq_len:
            return self.cached_angles[:seq_len]
        positions = torch.arange(seq_len, dtype=self.freqs.dtype)
        angles = torch.outer(positions, self.freqs)
        self.cached_angles = angles
        return angles

    def rotate(self, x):
        """x: (batch, heads, seq, head_dim); rotates consecutive pairs of channels."""
        ang = self.angles(x.size(-2))
        cos, sin = ang.cos(), ang.sin()
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)
