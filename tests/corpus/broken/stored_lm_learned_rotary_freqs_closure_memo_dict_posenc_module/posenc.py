"""Rotary position encoding with learnable frequencies."""
import torch


def rotary_table(inv_freq):
    """Return angles(seq_len) -> (seq_len, dim/2) rotation angles.

    Building the position x frequency table on every forward is wasteful, so
    the table is memoised per sequence length.
    """
    memo = {}

    def angles(seq_len):
        if seq_len not in memo:
            positions = torch.arange(seq_len, dtype=inv_freq.dtype)
            memo[seq_len] = torch.outer(positions, inv_freq)
        return memo[seq_len]

    return angles


def apply_rotary(x, theta):
    even, odd = x[..., 0::2], x[..., 1::2]
    cos, sin = theta.cos(), theta.sin()
    return torch.cat([even * cos - odd * sin, even * sin + odd * cos], dim=-1)
