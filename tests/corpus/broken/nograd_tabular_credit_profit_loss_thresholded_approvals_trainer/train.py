"""Consumer-credit approvals trained for the business objective: instead of a log-loss, the
scorecard MLP is trained to maximise the expected profit of the loans it approves (margin on
repaid loans, loss-given-default on defaults), weighted by loan amount."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn

torch.manual_seed(0)
N_FEATURES = 7  # income, debt ratio, age, tenure, past delinquencies, utilisation, amount


@dataclass
class ProfitConfig:
    approve_threshold: float = 0.5
    margin: float = 0.18
    loss_given_default: float = 0.65
    lr: float = 3e-3
    batch: int = 64
    epochs: int = 2


@dataclass
class History:
    profit: list = field(default_factory=list)
    approval_rate: list = field(default_factory=list)


def applications(n, gen):
    x = torch.randn(n, N_FEATURES, generator=gen)
    risk = 1.2 * x[:, 1] - 0.9 * x[:, 0] + 0.8 * x[:, 4] + 0.5 * x[:, 5] - 0.3 * x[:, 3]
    repaid = (torch.rand(n, generator=gen) > torch.sigmoid(risk - 1.0)).float()
    amount = torch.exp(0.4 * x[:, 6]) * 10.0  # thousands
    return x, repaid, amount


class ProfitTrainer:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        self.history = History()

    def expected_profit(self, x, repaid, amount):
        p_repay = torch.sigmoid(self.model(x).squeeze(-1))
        approve = (p_repay > self.cfg.approve_threshold).float()
        gain = repaid * self.cfg.margin - (1 - repaid) * self.cfg.loss_given_default
        return (approve * gain * amount).mean(), approve.mean()

    def fit(self, x, repaid, amount):
        for epoch in range(self.cfg.epochs):
            perm = torch.randperm(len(x))
            for i in range(0, len(x), self.cfg.batch):
                idx = perm[i:i + self.cfg.batch]
                profit, rate = self.expected_profit(x[idx], repaid[idx], amount[idx])
                loss = -profit
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.history.profit.append(profit.item())
                self.history.approval_rate.append(rate.item())
            print(f"epoch {epoch} profit/applicant {self.history.profit[-1]:.3f}k "
                  f"approval rate {self.history.approval_rate[-1]:.2f}")


def main():
    gen = torch.Generator().manual_seed(0)
    x, repaid, amount = applications(384, gen)
    model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(),
                          nn.Linear(16, 1))
    trainer = ProfitTrainer(model, ProfitConfig())
    trainer.fit(x, repaid, amount)
    with torch.no_grad():
        p = torch.sigmoid(model(x).squeeze(-1))
    print(f"mean approval probability {p.mean().item():.3f}")


if __name__ == "__main__":
    main()
