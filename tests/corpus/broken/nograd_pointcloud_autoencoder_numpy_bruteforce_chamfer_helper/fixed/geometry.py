"""Point-cloud utilities: shape sampling and the Chamfer distance."""
import math

import torch


def chamfer_distance(pred, target):
    """Mean symmetric Chamfer distance between two batches of clouds (B, N, 3), (B, M, 3)."""
    sq = torch.cdist(pred, target).pow(2)                        # (B, N, M)
    per_cloud = sq.min(dim=2).values.mean(dim=1) + sq.min(dim=1).values.mean(dim=1)
    return per_cloud.mean()


def sample_shape(kind, n, gen):
    u = torch.rand(n, generator=gen)
    v = torch.rand(n, generator=gen)
    if kind == 0:  # unit sphere
        theta, z = 2 * math.pi * u, 2 * v - 1
        r = (1 - z ** 2).sqrt()
        return torch.stack([r * theta.cos(), r * theta.sin(), z], 1)
    if kind == 1:  # cylinder
        theta = 2 * math.pi * u
        return torch.stack([theta.cos(), theta.sin(), 2 * v - 1], 1)
    face = torch.randint(0, 6, (n,), generator=gen)  # cube surface
    pts = torch.stack([2 * u - 1, 2 * v - 1, torch.ones(n)], 1)
    sign = torch.where(face % 2 == 0, 1.0, -1.0)[:, None]
    axis = face // 2
    return torch.stack([pts.roll(int(a), dims=1)[i] for i, a in enumerate(axis)]) * sign
