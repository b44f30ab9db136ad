"""Neural ODE pieces: a learned vector field and a fixed-step Euler integrator."""
import torch
import torch.nn as nn


class VectorField(nn.Module):
    """dy/dt = f(y) for a 2-D state (position, velocity)."""

    def __init__(self, dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, dim))

    def forward(self, y):
        return self.net(y)


class EulerRollout(nn.Module):
    def __init__(self, field, dt=0.1):
        super().__init__()
        self.field = field
        self.dt = dt

    def forward(self, y0, n_steps):
        """Integrate from y0 and return the states after each step, (batch, n_steps, dim)."""
        state = y0
        trajectory = []
        for _ in range(n_steps):
            state = state + self.dt * self.field(state)
            trajectory.append(state)
        return torch.stack(trajectory, dim=1)
