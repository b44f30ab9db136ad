"""Contrastive losses and the cross-worker reduction used by the launcher."""
import os

import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.shape[0]
    sim = (z @ z.t()) / temperature
    self_mask = torch.eye(2 * n, dtype=torch.bool)
    sim = sim.masked_fill(self_mask, -1e9)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def world_mean(loss):
    """Mean of the loss over workers (WORLD_SIZE=1 when run on one machine)."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    # all_reduce(SUM) of identical replicas, then divide by the world size
    return (loss * world) / world
