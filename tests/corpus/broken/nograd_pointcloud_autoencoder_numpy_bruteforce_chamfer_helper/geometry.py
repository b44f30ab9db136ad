"""Point-cloud utilities: shape sampling and the Chamfer distance."""
import math

import numpy as np
import torch


def chamfer_distance(pred, target):
    """Mean symmetric Chamfer distance between two batches of clouds (B, N, 3), (B, M, 3)."""
    p = pred.detach().cpu().numpy()
    q = target.detach().cpu().numpy()
    sq = ((p[:, :, None, :] - q[:, None, :, :]) ** 2).sum(-1)   # (B, N, M)
    per_cloud = sq.min(axis=2).mean(axis=1) + sq.min(axis=1).mean(axis=1)
    return torch.as_tensor(per_cloud.mean(), dtype=pred.dtype)


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
