"""Rotary position encoding with learnable frequencies."""
import torch


def rotary_table(inv_freq):
    """Return angles(seq_len) -> (seq_len, dim/2) rotation angles.

    The frequencies are trained, so the table is rebuilt on every forward:
    a memoised table would keep the graph of a step that has already been
    backwarded.
    """

    def angles(seq_len):
        positions = torch.arange(seq_len, dtype=inv_freq.dtype)
        return torch.outer(positions, inv_freq)

    return angles


def apply_rotary(x, theta):
    even, odd = x[..., 0::2], x[..., 1::2]
    cos, sin = theta.cos(), theta.sin()
    return torch.cat([even * cos - odd * sin, even * sin + odd * cos], dim=-1)
