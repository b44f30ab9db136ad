"""Probabilistic load forecasting: an MLP maps the last day of hourly load to the 10%,
50% and 90% quantiles of the next six hours and is trained on the pinball loss. The
trainer keeps the per-quantile losses of every step for the training report."""
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class ForecastConfig:
    quantiles: tuple = (0.1, 0.5, 0.9)
    lookback: int = 24
    horizon: int = 6
    hidden: int = 32
    batch: int = 16
    steps: int = 6
    lr: float = 3e-3


class QuantileMLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.body = nn.Sequential(nn.Linear(cfg.lookback, cfg.hidden), nn.GELU(),
                                  nn.Linear(cfg.hidden, cfg.hidden), nn.GELU())
        self.head = nn.Linear(cfg.hidden, cfg.horizon * len(cfg.quantiles))

    def forward(self, window):
        out = self.head(self.body(window))
        return out.view(-1, self.cfg.horizon, len(self.cfg.quantiles))


def load_windows(cfg, gen):
    """Daily-periodic load with a random level per feeder and heteroscedastic noise."""
    start = torch.randint(0, 24, (cfg.batch, 1), generator=gen)
    hours = start + torch.arange(cfg.lookback + cfg.horizon)
    level = 1.0 + 0.3 * torch.rand(cfg.batch, 1, generator=gen)
    daily = torch.sin(2 * math.pi * hours / 24)
    series = level * (1 + 0.4 * daily) + 0.1 * (1 + daily.abs()) * torch.randn(
        cfg.batch, cfg.lookback + cfg.horizon, generator=gen)
    return series[:, :cfg.lookback], series[:, cfg.lookback:]


@dataclass
class QuantileTrainer:
    model: nn.Module
    cfg: ForecastConfig
    history: list = field(default_factory=list)

    def __post_init__(self):
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.cfg.lr)

    @staticmethod
    def pinball(pred, target, q):
        err = target - pred
        return torch.maximum(q * err, (q - 1) * err).mean()

    def training_step(self, window, target):
        pred = self.model(window)
        per_q = [self.pinball(pred[..., k], target, q) for k, q in enumerate(self.cfg.quantiles)]
        per_q_values = torch.stack(per_q)
        self.history.append(per_q_values.detach())
        loss = per_q_values.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, gen):
        for step in range(self.cfg.steps):
            loss = self.training_step(*load_windows(self.cfg, gen))
            q_str = " ".join(f"q{int(q * 100)} {v:.4f}"
                             for q, v in zip(self.cfg.quantiles, self.history[-1].tolist()))
            print(f"step {step} pinball {loss:.4f} ({q_str})")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    cfg = ForecastConfig()
    model = QuantileMLP(cfg)
    QuantileTrainer(model, cfg).fit(gen)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
