"""All-pairs correlation volume and its windowed lookup for the RAFT-style flow model."""
import torch
import torch.nn.functional as F


def all_pairs_correlation(fmap1, fmap2):
    """(B, H, W, H, W) dot products between every pixel of fmap1 and every pixel of fmap2.
    Built once per image pair; the update iterations only index into it."""
    channels = fmap1.shape[1]
    return torch.einsum("bchw,bcuv->bhwuv", fmap1, fmap2) / channels ** 0.5


def lookup(corr, coords, radius=1):
    """Bilinearly sample corr in a (2r+1)^2 window around coords (B, 2, H, W), where coords are
    (x, y) positions in the second image: returns (B, (2r+1)^2, H, W)."""
    b, h, w, h2, w2 = corr.shape
    volume = corr.reshape(b * h * w, 1, h2, w2)
    d = torch.arange(-radius, radius + 1, dtype=coords.dtype)
    dy, dx = torch.meshgrid(d, d, indexing="ij")
    window = torch.stack([dx, dy], dim=-1).view(1, 2 * radius + 1, 2 * radius + 1, 2)
    centre = coords.permute(0, 2, 3, 1).reshape(b * h * w, 1, 1, 2)
    points = centre + window
    scale = torch.tensor([w2 - 1, h2 - 1], dtype=coords.dtype)
    sampled = F.grid_sample(volume, 2 * points / scale - 1, align_corners=True)
    return sampled.view(b, h, w, -1).permute(0, 3, 1, 2)
