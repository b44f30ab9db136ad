"""Few-shot sine regression with a FiLM-conditioned learner (CNAPs style). A set encoder
reads an episode's support set and produces a task code; the code scales and shifts the
learner's hidden units. Each episode is fitted for a few steps on its query points."""
from dataclasses import dataclass, field
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

HIDDEN, CODE_DIM = 32, 8


@dataclass
class Episode:
    x_support: torch.Tensor
    y_support: torch.Tensor
    x_query: torch.Tensor
    y_query: torch.Tensor
    task_code: Optional[torch.Tensor] = None
    losses: List[float] = field(default_factory=list)


class SetEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(2, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, CODE_DIM))

    def forward(self, x, y):
        return self.phi(torch.cat([x, y], dim=1)).mean(dim=0)


class FiLMRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(1, HIDDEN)
        self.film = nn.Linear(CODE_DIM, 2 * HIDDEN)
        self.out = nn.Linear(HIDDEN, 1)

    def forward(self, x, code):
        gamma, beta = self.film(code).chunk(2)
        h = torch.relu(self.inp(x) * (1 + gamma) + beta)
        return self.out(h)


def sample_episode(n_support=10, n_query=15):
    amplitude = torch.empty(1).uniform_(0.5, 2.0)
    phase = torch.empty(1).uniform_(0.0, 3.14)
    x = torch.empty(n_support + n_query, 1).uniform_(-3.0, 3.0)
    y = amplitude * torch.sin(x + phase)
    return Episode(x[:n_support], y[:n_support], x[n_support:], y[n_support:])


def fit_episode(ep, encoder, learner, optimizer, steps=3):
    ep.task_code = encoder(ep.x_support, ep.y_support)
    for _ in range(steps):
        pred = learner(ep.x_query, ep.task_code)
        loss = F.mse_loss(pred, ep.y_query)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ep.losses.append(loss.item())
    return ep


def main():
    torch.manual_seed(0)
    encoder, learner = SetEncoder(), FiLMRegressor()
    params = list(encoder.parameters()) + list(learner.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-3)
    for episode in range(4):
        ep = fit_episode(sample_episode(), encoder, learner, optimizer)
        print(f"episode {episode} query mse {ep.losses[0]:.4f} -> {ep.losses[-1]:.4f}")


if __name__ == "__main__":
    main()
