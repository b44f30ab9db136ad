"""Fit a conditional flow to the joint density of the next two values of a noisy,
regime-switching AR(1) series given the last eight values, by maximum likelihood."""
from dataclasses import dataclass

import torch

from flows import ConditionalFlow


@dataclass
class Config:
    history: int = 8
    horizon: int = 2
    batch: int = 64
    steps: int = 6
    lr: float = 5e-3
    seed: int = 0


def sample_windows(cfg, g):
    phi = torch.where(torch.rand(cfg.batch, 1, generator=g) < 0.5, 0.9, -0.5)
    length = cfg.history + cfg.horizon
    noise = torch.randn(cfg.batch, length, generator=g)
    series = [noise[:, 0]]
    for t in range(1, length):
        series.append(phi[:, 0] * series[-1] + 0.5 * noise[:, t])
    series = torch.stack(series, dim=1)
    return series[:, :cfg.history], series[:, cfg.history:]


def train(cfg):
    torch.manual_seed(cfg.seed)
    g = torch.Generator().manual_seed(cfg.seed)
    model = ConditionalFlow(cfg.horizon)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        history, target = sample_windows(cfg, g)
        nll = -model.log_prob(target, history).mean()
        optimizer.zero_grad()
        nll.backward()
        optimizer.step()
        print(f"step {step} nll {nll.item():.4f}")
    return model


if __name__ == "__main__":
    train(Config())
