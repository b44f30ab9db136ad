"""Heatmap decoding helpers shared by training and evaluation (integral regression)."""
import torch
import torch.nn.functional as F


def spatial_softmax(heatmaps, beta=10.0):
    b, j, h, w = heatmaps.shape
    return F.softmax(heatmaps.reshape(b, j, h * w) * beta, dim=-1)


def drop_invisible(prob, visible):
    # joints outside the crop must not pull the soft-argmax anywhere
    return prob * visible.unsqueeze(-1)


def soft_argmax(prob, h, w):
    ys = torch.arange(h, dtype=prob.dtype).repeat_interleave(w)
    xs = torch.arange(w, dtype=prob.dtype).repeat(h)
    x = (prob * xs).sum(-1)
    y = (prob * ys).sum(-1)
    return torch.stack([x, y], dim=-1)
