"""Train a reaching policy for a 2-joint planar arm by backpropagating through a known,
differentiable model of the arm's joint dynamics (analytic policy gradient).

The motor drivers only accept a handful of torque levels, so the policy scores one bin per
level for each joint and the rollout applies the selected level.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class ArmConfig:
    n_joints: int = 2
    n_bins: int = 7
    max_torque: float = 2.0
    dt: float = 0.1
    damping: float = 0.3
    inertia: float = 0.5
    horizon: int = 8
    effort_weight: float = 1e-3


class BinnedTorquePolicy(nn.Module):
    def __init__(self, cfg: ArmConfig, hidden=32):
        super().__init__()
        self.cfg = cfg
        self.net = nn.Sequential(
            nn.Linear(3 * cfg.n_joints, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, cfg.n_joints * cfg.n_bins),
        )
        self.register_buffer("levels", torch.linspace(-cfg.max_torque, cfg.max_torque, cfg.n_bins))

    def forward(self, q, qd, goal):
        logits = self.net(torch.cat([q, qd, goal - q], dim=-1))
        return logits.view(-1, self.cfg.n_joints, self.cfg.n_bins)


def arm_step(q, qd, torque, cfg: ArmConfig):
    """Semi-implicit Euler step of decoupled damped joints."""
    qdd = (torque - cfg.damping * qd) / cfg.inertia
    qd = qd + cfg.dt * qdd
    q = q + cfg.dt * qd
    return q, qd


def fingertip(q, link=(1.0, 0.8)):
    x = link[0] * torch.cos(q[:, 0]) + link[1] * torch.cos(q[:, 0] + q[:, 1])
    y = link[0] * torch.sin(q[:, 0]) + link[1] * torch.sin(q[:, 0] + q[:, 1])
    return torch.stack([x, y], dim=-1)


def rollout_loss(policy, q, qd, goal, cfg: ArmConfig):
    effort = 0.0
    for _ in range(cfg.horizon):
        logits = policy(q, qd, goal)
        torque = policy.levels[logits.argmax(dim=-1)]
        q, qd = arm_step(q, qd, torque, cfg)
        effort = effort + (torque ** 2).sum(dim=-1)
    reach = (fingertip(q) - fingertip(goal)).pow(2).sum(dim=-1)
    return (reach + cfg.effort_weight * effort).mean(), reach.sqrt().mean()


def sample_tasks(batch, cfg: ArmConfig, gen):
    q0 = (torch.rand(batch, cfg.n_joints, generator=gen) - 0.5) * 2.0
    goal = (torch.rand(batch, cfg.n_joints, generator=gen) - 0.5) * 2.0
    return q0, torch.zeros(batch, cfg.n_joints), goal


def train(cfg: ArmConfig, iterations=6, batch=32):
    gen = torch.Generator().manual_seed(0)
    policy = BinnedTorquePolicy(cfg)
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    for it in range(iterations):
        q0, qd0, goal = sample_tasks(batch, cfg, gen)
        loss, distance = rollout_loss(policy, q0, qd0, goal, cfg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f} fingertip error {distance.item():.4f}")
    return policy


torch.manual_seed(0)
policy = train(ArmConfig())
print(f"checksum {sum(p.sum().item() for p in policy.parameters()):.6f}")
