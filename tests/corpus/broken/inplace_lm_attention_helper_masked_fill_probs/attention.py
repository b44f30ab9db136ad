"""Scaled dot-product attention with a causal mask and key padding."""
import math

import torch


def attend(q, k, v, pad):
    """q, k, v: (batch, len, dim); pad: (batch, len) True where the key is padding."""
    length = q.size(1)
    scores = q @ k.transpose(1, 2) / math.sqrt(q.size(-1))
    future = torch.ones(length, length, dtype=torch.bool).triu(1)
    scores = scores.masked_fill(future, float("-inf"))
    probs = torch.softmax(scores, dim=-1)
    # padded keys must get no attention at all: zero them and renormalise the rest
    probs.masked_fill_(pad[:, None, :], 0.0)
    probs = probs / probs.sum(-1, keepdim=True).clamp_min(1e-9)
    return probs @ v
