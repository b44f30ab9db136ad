"""Heatmap heads and decoding helpers for the keypoint detector."""
import functools

import torch
import torch.nn as nn


def unit_mass(fn):
    """Makes every heatmap returned by fn a distribution over pixels (each map sums to one),
    which the soft-argmax decoder expects."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        maps = fn(*args, **kwargs)
        maps /= maps.sum(dim=(-2, -1), keepdim=True) + 1e-6
        return maps
    return wrapper


class HeatmapHead(nn.Module):
    def __init__(self, in_channels, n_keypoints):
        super().__init__()
        self.refine = nn.Sequential(nn.Conv2d(in_channels, in_channels, 3, padding=1), nn.ReLU())
        self.score = nn.Conv2d(in_channels, n_keypoints, 1)

    @unit_mass
    def forward(self, feats):
        return torch.sigmoid(8.0 * self.score(self.refine(feats)))


def soft_argmax(heatmaps):
    """Expected (x, y) pixel position under each normalised heatmap: (B, K, 2)."""
    h, w = heatmaps.shape[-2:]
    ys = torch.arange(h, dtype=heatmaps.dtype).view(1, 1, h, 1)
    xs = torch.arange(w, dtype=heatmaps.dtype).view(1, 1, 1, w)
    x = (heatmaps * xs).sum(dim=(-2, -1))
    y = (heatmaps * ys).sum(dim=(-2, -1))
    return torch.stack([x, y], dim=-1)
