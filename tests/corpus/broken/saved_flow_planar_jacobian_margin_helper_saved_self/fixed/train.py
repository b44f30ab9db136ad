"""Variational inference with a stack of planar flows: fit q(z) to an unnormalised
banana-shaped density in 2-D by minimising KL(q || p)."""
import math

import torch

from diagnostics import format_margin, jacobian_margin
from flows import PlanarFlowStack

DIM, N_LAYERS, BATCH, STEPS = 2, 4, 256, 6


def log_banana(z):
    """Unnormalised log-density of a curved 2-D target."""
    x, y = z[:, 0], z[:, 1]
    return -0.5 * (x / 1.5) ** 2 - 2.0 * (y - 0.5 * x ** 2 + 1.0) ** 2


def log_base(z):
    return -0.5 * (z ** 2).sum(1) - 0.5 * DIM * math.log(2 * math.pi)


torch.manual_seed(0)
flow = PlanarFlowStack(DIM, N_LAYERS)
optimizer = torch.optim.Adam(flow.parameters(), lr=1e-2)

for step in range(STEPS):
    z0 = torch.randn(BATCH, DIM)
    zk, sum_log_det = flow(z0)
    # reverse KL up to the unknown normaliser of the target
    kl = (log_base(z0) - sum_log_det - log_banana(zk)).mean()
    margin = jacobian_margin(flow)
    optimizer.zero_grad()
    kl.backward()
    optimizer.step()
    print(f"step {step}: kl {kl.item():.4f} {format_margin(margin)}")

with torch.no_grad():
    samples, _ = flow(torch.randn(1000, DIM))
print(f"sample mean {samples.mean(0).tolist()}")
