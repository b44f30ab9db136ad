"""Learned simulator for a chain of masses connected by springs.

An MLP predicts per-particle accelerations from relative positions and velocities; a
semi-implicit Euler step integrates them. To make the simulator robust to its own errors it
is trained "on-policy": each training window starts where the model's own rollout ended in
the previous window, and the prediction is compared with the true trajectory.
"""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn

N_PART, DT, WINDOW, N_WINDOWS, BATCH = 5, 0.05, 3, 6, 4


@dataclass
class RolloutState:
    z: torch.Tensor            # (batch, 2 * N_PART): positions then velocities
    t: int = 0
    errors: List[float] = field(default_factory=list)


class AccelerationNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * N_PART, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, N_PART))

    def step(self, z):
        pos, vel = z[:, :N_PART], z[:, N_PART:]
        rel = pos - pos.mean(dim=1, keepdim=True)
        acc = self.net(torch.cat([rel, vel], dim=1))
        vel = vel + DT * acc
        pos = pos + DT * vel
        return torch.cat([pos, vel], dim=1)


def true_step(z, k=4.0, damping=0.1):
    pos, vel = z[:, :N_PART], z[:, N_PART:]
    left = torch.cat([pos[:, :1], pos[:, :-1]], dim=1)
    right = torch.cat([pos[:, 1:], pos[:, -1:]], dim=1)
    acc = k * (left + right - 2 * pos) - damping * vel
    vel = vel + DT * acc
    pos = pos + DT * vel
    return torch.cat([pos, vel], dim=1)


def true_trajectory(z0, n_steps):
    traj, z = [], z0
    for _ in range(n_steps):
        z = true_step(z)
        traj.append(z)
    return torch.stack(traj)


def main():
    torch.manual_seed(0)
    z0 = torch.cat([torch.randn(BATCH, N_PART) * 0.3, torch.zeros(BATCH, N_PART)], dim=1)
    truth = true_trajectory(z0, WINDOW * N_WINDOWS)
    model = AccelerationNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    state = RolloutState(z=z0)

    for w in range(N_WINDOWS):
        preds = []
        for _ in range(WINDOW):
            state.z = model.step(state.z)
            preds.append(state.z)
        target = truth[state.t:state.t + WINDOW]
        loss = (torch.stack(preds) - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state.t += WINDOW
        state.errors.append(loss.item())
        print(f"window {w} t={state.t} rollout mse {loss.item():.5f}")


if __name__ == "__main__":
    main()
