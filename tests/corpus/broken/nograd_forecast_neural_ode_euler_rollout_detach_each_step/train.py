"""Fit a neural ODE to trajectories of a damped oscillator and forecast from the first
observed state: the loss is the MSE over the whole integrated trajectory."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from ode import EulerRollout, VectorField


@dataclass
class Config:
    n_series: int = 32
    horizon: int = 20
    dt: float = 0.1
    damping: float = 0.3
    omega: float = 2.0
    lr: float = 1e-2
    iterations: int = 5


def simulate(cfg, gen):
    """Exact Euler-discretised oscillator trajectories from random initial states."""
    y = torch.randn(cfg.n_series, 2, generator=gen)
    y0, states = y.clone(), []
    A = torch.tensor([[0.0, 1.0], [-cfg.omega ** 2, -cfg.damping]])
    for _ in range(cfg.horizon):
        y = y + cfg.dt * y @ A.T
        states.append(y)
    return y0, torch.stack(states, dim=1)


def run(cfg):
    torch.manual_seed(0)
    y0, target = simulate(cfg, torch.Generator().manual_seed(1))
    model = EulerRollout(VectorField(), dt=cfg.dt)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for it in range(cfg.iterations):
        pred = model(y0, cfg.horizon)
        loss = F.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} trajectory mse {loss.item():.5f}")
    return loss.item()


if __name__ == "__main__":
    run(Config())
