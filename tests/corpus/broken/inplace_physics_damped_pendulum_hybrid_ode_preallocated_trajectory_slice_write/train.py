"""Hybrid ODE model of a damped pendulum: known gravity term + learned damping coefficient +
a small MLP correction for unmodelled friction. Trajectories are integrated with explicit
Euler into a preallocated (steps+1, batch, 2) tensor and fitted to observed angles."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class Config:
    steps: int = 20
    dt: float = 0.05
    batch: int = 16
    epochs: int = 5
    lr: float = 1e-2


class PendulumField(nn.Module):
    def __init__(self, g_over_l=9.81):
        super().__init__()
        self.g_over_l = g_over_l
        self.log_damping = nn.Parameter(torch.tensor(-2.0))
        self.correction = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, state):  # state: (batch, 2) = (angle, angular velocity)
        theta, omega = state[:, :1], state[:, 1:]
        alpha = (-self.g_over_l * torch.sin(theta) - self.log_damping.exp() * omega
                 + self.correction(state))
        return torch.cat([omega, alpha], -1)


def rollout(field, x0, cfg):
    traj = x0.new_zeros(cfg.steps + 1, *x0.shape)
    traj[0] = x0
    for t in range(cfg.steps):
        traj[t + 1] = traj[t] + cfg.dt * field(traj[t])
    return traj


def observed_trajectories(x0, cfg):
    """Ground truth: damping 0.3 plus Coulomb friction, integrated finely."""
    x, out, sub = x0.clone(), [x0.clone()], 10
    for _ in range(cfg.steps):
        for _ in range(sub):
            theta, omega = x[:, :1], x[:, 1:]
            alpha = -9.81 * torch.sin(theta) - 0.3 * omega - 0.2 * torch.tanh(5 * omega)
            x = x + cfg.dt / sub * torch.cat([omega, alpha], -1)
        out.append(x.clone())
    return torch.stack(out)


def main(cfg=Config()):
    field = PendulumField()
    optimizer = torch.optim.Adam(field.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        x0 = torch.cat([torch.rand(cfg.batch, 1) * 2 - 1, torch.zeros(cfg.batch, 1)], -1)
        target = observed_trajectories(x0, cfg)
        pred = rollout(field, x0, cfg)
        loss = F.mse_loss(pred[..., 0], target[..., 0])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} angle mse {loss.item():.5f} damping {field.log_damping.exp().item():.4f}")


if __name__ == "__main__":
    main()
