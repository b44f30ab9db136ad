"""Deep residual MLP regressor trained with activation checkpointing (to fit bigger batches
in memory). Progress is kept in a TrainState dataclass that is also what gets saved."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
DIM, DEPTH = 16, 6


class ResidualBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class DeepRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, DIM)
        self.blocks = nn.ModuleList(ResidualBlock(DIM) for _ in range(DEPTH))
        self.out = nn.Linear(DIM, 1)

    def forward(self, x):
        h = self.inp(x)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return self.out(h).squeeze(-1)


@dataclass
class TrainState:
    step: int = 0
    loss_total: torch.Tensor = field(default_factory=lambda: torch.zeros(()))
    history: list = field(default_factory=list)

    def mean_loss(self):
        return float(self.loss_total) / max(self.step, 1)


def train(model, state, steps=10):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    w = torch.randn(8)
    for _ in range(steps):
        x = torch.randn(64, 8)
        y = torch.sin(x @ w) + 0.1 * torch.randn(64)
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state.step += 1
        state.loss_total += loss.item()
        state.history.append(state.mean_loss())
        print(f"step {state.step} loss {loss.item():.4f} running mean {state.mean_loss():.4f}")
    return state


state = train(DeepRegressor(), TrainState())
print(f"done after {state.step} steps, mean loss {state.mean_loss():.4f}")
