"""Pair scoring for the face-verification head.

A pair's logit is its cosine similarity, scaled and shifted.  The cosine is
computed with NumPy because the same function is used by the offline ROC
script, which works on embeddings dumped to .npy files.
"""
import numpy as np
import torch

SCALE = 6.0
SHIFT = -2.0


def _cosine_np(a, b):
    a = a / (np.linalg.norm(a, axis=1, keepdims=True) + 1e-8)
    b = b / (np.linalg.norm(b, axis=1, keepdims=True) + 1e-8)
    return np.sum(a * b, axis=1).astype(np.float32)


def pair_logits(emb_a, emb_b):
    cos = torch.from_numpy(_cosine_np(emb_a.detach().numpy(), emb_b.detach().numpy()))
    return SCALE * cos + SHIFT
