"""Learned particle simulator (GNS-style) for a 2-D spring chain: a message-passing network
predicts each particle's acceleration from its neighbours' relative positions, and a
semi-implicit Euler step advances the state. The trainer rolls the learned simulator forward
along a ground-truth trajectory so the model is trained on its own predicted states."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_PARTICLES, DT, STIFFNESS, REST = 6, 0.05, 4.0, 1.0


@dataclass
class SimState:
    pos: torch.Tensor
    vel: torch.Tensor


def chain_edges(n):
    src = torch.arange(n - 1)
    return torch.cat([torch.stack([src, src + 1]), torch.stack([src + 1, src])], dim=1)


def true_step(state, edges):
    rel = state.pos[edges[1]] - state.pos[edges[0]]
    length = rel.norm(dim=1, keepdim=True)
    force = STIFFNESS * (length - REST) * rel / length
    acc = torch.zeros_like(state.pos).index_add_(0, edges[0], force)
    vel = state.vel + DT * acc
    return SimState(state.pos + DT * vel, vel)


class InteractionNetwork(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.edge_mlp = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.node_mlp = nn.Sequential(nn.Linear(hidden + 2, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, state, edges):
        rel = state.pos[edges[1]] - state.pos[edges[0]]
        messages = self.edge_mlp(torch.cat([rel, rel.norm(dim=1, keepdim=True)], dim=1))
        agg = torch.zeros(state.pos.shape[0], messages.shape[1]).index_add(0, edges[0], messages)
        return self.node_mlp(torch.cat([agg, state.vel], dim=1))


class RolloutTrainer:
    def __init__(self, model, edges, trajectory, lr=3e-3):
        self.model, self.edges, self.trajectory = model, edges, trajectory
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.state = trajectory[0]

    def step(self, t):
        acc = self.model(self.state, self.edges)
        vel = self.state.vel + DT * acc
        pred = SimState(self.state.pos + DT * vel, vel)
        loss = F.mse_loss(pred.pos, self.trajectory[t + 1].pos)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.state = SimState(pred.pos.detach(), pred.vel.detach())
        return loss.item()

    def fit(self, steps):
        for t in range(steps):
            loss = self.step(t)
            print(f"rollout step {t + 1}: position mse {loss:.6f}")


torch.manual_seed(0)
edges = chain_edges(N_PARTICLES)
start = SimState(torch.stack([torch.arange(N_PARTICLES) * 1.2, 0.3 * torch.randn(N_PARTICLES)], dim=1),
                 torch.zeros(N_PARTICLES, 2))
trajectory = [start]
for _ in range(8):
    trajectory.append(true_step(trajectory[-1], edges))

trainer = RolloutTrainer(InteractionNetwork(), edges, trajectory)
trainer.fit(steps=6)
checksum = sum(p.sum().item() for p in trainer.model.parameters())
print(f"final drift {(trainer.state.pos - trajectory[6].pos).abs().mean().item():.6f} checksum {checksum:.4f}")
