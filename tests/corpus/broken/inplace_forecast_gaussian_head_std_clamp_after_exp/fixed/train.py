"""Probabilistic one-step-ahead forecaster (DeepAR-like): a GRU reads a window of a noisy
seasonal series and a Gaussian head predicts the mean and standard deviation of the next
value; trained on the Gaussian negative log-likelihood."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    window: int = 24
    hidden: int = 16
    batch: int = 16
    epochs: int = 2
    batches_per_epoch: int = 3
    min_std: float = 1e-3
    lr: float = 1e-2


class GaussianForecaster(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.rnn = nn.GRU(1, cfg.hidden, batch_first=True)
        self.mu = nn.Linear(cfg.hidden, 1)
        self.log_var = nn.Linear(cfg.hidden, 1)

    def forward(self, window):
        _, h = self.rnn(window.unsqueeze(-1))
        h = h[-1]
        mu = self.mu(h).squeeze(-1)
        std = torch.exp(0.5 * self.log_var(h)).squeeze(-1)
        std = std.clamp(min=self.cfg.min_std)
        return mu, std


def gaussian_nll(mu, std, target):
    z = (target - mu) / std
    return (0.5 * z ** 2 + torch.log(std) + 0.5 * math.log(2 * math.pi)).mean()


def sample_windows(cfg, generator):
    start = torch.randint(0, 200, (cfg.batch, 1), generator=generator).float()
    t = start + torch.arange(cfg.window + 1).float()
    series = torch.sin(2 * math.pi * t / 12) + 0.1 * torch.randn(t.shape, generator=generator)
    return series[:, :-1], series[:, -1]


def main(cfg=Config()):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = GaussianForecaster(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for _ in range(cfg.batches_per_epoch):
            window, target = sample_windows(cfg, gen)
            mu, std = model(window)
            loss = gaussian_nll(mu, std, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} nll {loss.item():.4f}")


if __name__ == "__main__":
    main()
