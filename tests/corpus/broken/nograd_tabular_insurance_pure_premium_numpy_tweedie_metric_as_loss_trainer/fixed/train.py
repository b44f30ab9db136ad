"""Pure-premium model for motor insurance: a small MLP over policy features (driver age,
vehicle power, region, bonus-malus, ...) predicts expected claim cost per policy-year,
fitted with the Tweedie deviance the pricing team reports (power 1.5)."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

from metrics import gini

N_NUM, N_REGIONS = 6, 8


@dataclass
class Config:
    power: float = 1.5
    lr: float = 5e-3
    epochs: int = 3
    batch_size: int = 64


class PremiumNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.region = nn.Embedding(N_REGIONS, 3)
        self.mlp = nn.Sequential(nn.Linear(N_NUM + 3, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, num, region):
        return self.mlp(torch.cat([num, self.region(region)], dim=1)).squeeze(1)


def policies(n, gen):
    num = torch.randn(n, N_NUM, generator=gen)
    region = torch.randint(0, N_REGIONS, (n,), generator=gen)
    rate = torch.exp(-1.0 + 0.4 * num[:, 0] - 0.3 * num[:, 2] + 0.1 * region.float())
    claims = torch.poisson(rate * 0.5, generator=gen)
    severity = torch.distributions.Gamma(2.0, 1.0).sample((n,))
    return num, region, claims * severity


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = PremiumNet()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)

    def loss(self, log_mu, cost):
        # the deviance in torch (mean_tweedie_deviance stays the NumPy reporting metric)
        p = self.cfg.power
        dev = 2 * (cost.clamp(min=0) ** (2 - p) / ((1 - p) * (2 - p))
                   - cost * torch.exp((1 - p) * log_mu) / (1 - p)
                   + torch.exp((2 - p) * log_mu) / (2 - p))
        return dev.mean()

    def fit(self, num, region, cost):
        n = num.shape[0]
        for epoch in range(self.cfg.epochs):
            for start in range(0, n, self.cfg.batch_size):
                sl = slice(start, start + self.cfg.batch_size)
                log_mu = self.model(num[sl], region[sl])
                loss = self.loss(log_mu, cost[sl])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            with torch.no_grad():
                pred = self.model(num, region).exp().numpy()
            print(f"epoch {epoch} deviance {loss.item():.4f} gini {gini(cost.numpy(), pred):.4f}")


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    gen = torch.Generator().manual_seed(2)
    num, region, cost = policies(192, gen)
    Trainer(Config()).fit(num, region, cost)


if __name__ == "__main__":
    main()
