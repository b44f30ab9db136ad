"""Reaching policy for a 2-joint planar arm with discrete torque levels, trained by
backpropagating through the arm's differentiable joint dynamics.

The rollout applies hard levels chosen by argmax, but through a straight-through estimator:
the forward pass uses the one-hot choice, the backward pass the softmax over bins. The
greedy evaluation rollout runs under inference_mode and logs the chosen bins via .tolist().
"""
from collections import Counter
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


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
            nn.Linear(hidden, cfg.n_joints * cfg.n_bins),
        )
        self.register_buffer("levels", torch.linspace(-cfg.max_torque, cfg.max_torque, cfg.n_bins))

    def forward(self, q, qd, goal):
        logits = self.net(torch.cat([q, qd, goal - q], dim=-1))
        return logits.view(-1, self.cfg.n_joints, self.cfg.n_bins)

    def straight_through_torque(self, logits):
        probs = logits.softmax(dim=-1)
        hard = F.one_hot(probs.argmax(dim=-1), self.cfg.n_bins).to(probs.dtype)
        weights = hard + probs - probs.detach()          # value: one-hot, gradient: softmax
        return (weights * self.levels).sum(dim=-1)

    def greedy_torque(self, logits):
        bins = logits.argmax(dim=-1)
        return self.levels[bins], bins


def arm_step(q, qd, torque, cfg: ArmConfig):
    qdd = (torque - cfg.damping * qd) / cfg.inertia
    qd = qd + cfg.dt * qdd
    return q + cfg.dt * qd, qd


def fingertip(q, link=(1.0, 0.8)):
    x = link[0] * torch.cos(q[:, 0]) + link[1] * torch.cos(q[:, 0] + q[:, 1])
    y = link[0] * torch.sin(q[:, 0]) + link[1] * torch.sin(q[:, 0] + q[:, 1])
    return torch.stack([x, y], dim=-1)


def sample_tasks(batch, cfg, gen):
    q0 = (torch.rand(batch, cfg.n_joints, generator=gen) - 0.5) * 2.0
    goal = (torch.rand(batch, cfg.n_joints, generator=gen) - 0.5) * 2.0
    return q0, torch.zeros(batch, cfg.n_joints), goal


def training_loss(policy, q, qd, goal, cfg):
    effort = torch.zeros(q.size(0))
    for _ in range(cfg.horizon):
        torque = policy.straight_through_torque(policy(q, qd, goal))
        q, qd = arm_step(q, qd, torque, cfg)
        effort = effort + (torque ** 2).sum(dim=-1)
    reach = (fingertip(q) - fingertip(goal)).pow(2).sum(dim=-1)
    return (reach + cfg.effort_weight * effort).mean()


@torch.inference_mode()
def greedy_eval(policy, q, qd, goal, cfg):
    histogram = Counter()
    for _ in range(cfg.horizon):
        torque, bins = policy.greedy_torque(policy(q, qd, goal))
        histogram.update(bins.flatten().tolist())
        q, qd = arm_step(q, qd, torque, cfg)
    error = (fingertip(q) - fingertip(goal)).norm(dim=-1).mean().item()
    return error, [histogram[b] for b in range(cfg.n_bins)]


def train(cfg: ArmConfig, iterations=6, batch=32):
    gen = torch.Generator().manual_seed(0)
    policy = BinnedTorquePolicy(cfg)
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    eval_tasks = sample_tasks(64, cfg, gen)
    for it in range(iterations):
        loss = training_loss(policy, *sample_tasks(batch, cfg, gen), cfg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        error, hist = greedy_eval(policy, *eval_tasks, cfg)
        print(f"iter {it} loss {loss.item():.4f} greedy error {error:.4f} bins {hist}")
    return policy


torch.manual_seed(0)
policy = train(ArmConfig())
print(f"checksum {sum(p.sum().item() for p in policy.parameters()):.6f}")
