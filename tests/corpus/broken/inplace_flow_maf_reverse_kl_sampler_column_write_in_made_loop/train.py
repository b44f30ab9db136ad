"""Variational sampler: a MAF is fitted to an unnormalised 4-D target density by minimising
the reverse KL, E_q[log q(x) - log p(x)], with samples drawn from the flow itself."""
import torch

from maf import MAF

torch.manual_seed(0)
TARGET_MEAN = torch.tensor([1.0, -1.0, 0.5, 0.0])


def target_log_density(x):
    """Correlated Gaussian with a quartic tail in the last coordinate (unnormalised)."""
    d = x - TARGET_MEAN
    quad = d[:, 0] ** 2 + (d[:, 1] - 0.5 * d[:, 0]) ** 2 + d[:, 2] ** 2
    return -0.5 * quad - 0.25 * d[:, 3] ** 4


def fit(flow, steps=6, batch=64):
    optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
    for step in range(steps):
        x, log_q = flow.sample_with_log_prob(batch)
        loss = (log_q - target_log_density(x)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} reverse KL (up to a constant) {loss.item():.4f}")


fit(MAF())
