"""Small helpers shared by the attention layers."""
import math

import torch


def scaled_scores(q, k):
    return q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])


def drop_padded_keys(weights, pad_mask):
    """Zero the attention paid to padded time steps and renormalise each row."""
    weights.masked_fill_(pad_mask[:, None, :], 0.0)
    return weights / weights.sum(dim=-1, keepdim=True).clamp_min(1e-9)
