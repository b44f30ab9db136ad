"""Hamiltonian neural network: an MLP H(q, p) whose symplectic gradient gives the dynamics.

The last layer has no bias: a constant offset of H does not change its gradient.
"""
import torch
import torch.nn as nn


class HNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.H = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden),
                               nn.Tanh(), nn.Linear(hidden, 1, bias=False))

    def time_derivative(self, z):
        """dq/dt = dH/dp, dp/dt = -dH/dq; differentiable w.r.t. the parameters of H."""
        if not z.requires_grad:
            z = z.requires_grad_(True)
        dH = torch.autograd.grad(self.H(z).sum(), z, create_graph=True)[0]
        return torch.stack([dH[:, 1], -dH[:, 0]], dim=1)

    def rollout(self, z0, n_steps, dt):
        """Fourth-order Runge-Kutta rollout that stays inside the graph (trained end to end)."""
        z, traj = z0, []
        for _ in range(n_steps):
            k1 = self.time_derivative(z)
            k2 = self.time_derivative(z + 0.5 * dt * k1)
            k3 = self.time_derivative(z + 0.5 * dt * k2)
            k4 = self.time_derivative(z + dt * k3)
            z = z + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
            traj.append(z)
        return torch.stack(traj)
