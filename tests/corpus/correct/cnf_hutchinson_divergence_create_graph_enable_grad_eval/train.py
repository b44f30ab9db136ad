"""Continuous normalising flow (FFJORD-style) on 2-D data, integrated with a fixed-step
Euler solver. The log-density change needs the divergence of the vector field, estimated
with Hutchinson's trick: one vector-Jacobian product per step, differentiable during
training (create_graph=True) so the likelihood can be trained through it."""
import math

import torch
import torch.nn as nn

N_STEPS, BATCH, STEPS = 4, 128, 6


class VectorField(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(),
                                 nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 2))

    def forward(self, t, z):
        return self.net(torch.cat([z, t.expand(z.shape[0], 1)], dim=1))


def dynamics_with_divergence(field, t, z, eps, training):
    """f(t, z) and the Hutchinson estimate eps^T (df/dz) eps of its divergence."""
    with torch.enable_grad():  # evaluation runs under no_grad, but the VJP needs a graph
        if not z.requires_grad:
            z = z.detach().requires_grad_(True)
        f = field(t, z)
        (vjp,) = torch.autograd.grad(f, z, grad_outputs=eps, create_graph=training)
    return f, (vjp * eps).sum(dim=1)


def log_prob(field, x, training=True):
    """log p(x) = log N(z(1)) + integral of div f along the path from x (t=0) to z(1)."""
    z = x
    eps = torch.randn_like(x)  # one probe per sample, fixed along the trajectory
    int_div = torch.zeros(x.shape[0])
    dt = 1.0 / N_STEPS
    for k in range(N_STEPS):
        t = torch.tensor([[k * dt]])
        f, div = dynamics_with_divergence(field, t, z, eps, training)
        z = z + dt * f
        int_div = int_div + dt * div
    log_base = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi)
    return log_base + int_div


def two_moons(n, g):
    theta = math.pi * torch.rand(n, generator=g)
    upper = torch.rand(n, generator=g) < 0.5
    x = torch.stack([torch.cos(theta), torch.sin(theta)], dim=1)
    x = torch.where(upper.unsqueeze(1), x, torch.stack([1 - x[:, 0], 0.5 - x[:, 1]], dim=1))
    return x + 0.05 * torch.randn(n, 2, generator=g)


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
field = VectorField()
optimizer = torch.optim.Adam(field.parameters(), lr=3e-3)
for step in range(STEPS):
    x = two_moons(BATCH, g)
    nll = -log_prob(field, x).mean()
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    print(f"step {step}: nll {nll.item():.4f}")

with torch.no_grad():
    held_out = two_moons(512, g)
    test_nll = -log_prob(field, held_out, training=False).mean()
print(f"held-out nll {test_nll.item():.4f}")
print(f"checksum {sum(p.sum() for p in field.parameters()).item():.6f}")
