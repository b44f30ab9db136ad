"""Subscription churn: exponential time-to-churn model with right censoring."""
import torch
import torch.nn as nn

from metrics import concordance, hazard_summary


class ChurnTrainer:
    def __init__(self, n_features=9, lr=5e-3, seed=31):
        torch.manual_seed(seed)
        self.gen = torch.Generator().manual_seed(seed)
        self.n_features = n_features
        self.net = nn.Sequential(nn.Linear(n_features, 16), nn.SiLU(), nn.Linear(16, 1))
        self.opt = torch.optim.RMSprop(self.net.parameters(), lr=lr)

    def batch(self, n=40):
        x = torch.randn(n, self.n_features, generator=self.gen)
        true_rate = torch.exp(0.6 * x[:, 0] - 0.4 * x[:, 1] - 2.0)
        months = -torch.log(torch.rand(n, generator=self.gen)) / true_rate
        churned = (months < 12).float()
        return x, months.clamp(max=12.0), churned

    def step(self):
        x, months, churned = self.batch()
        hazard = torch.exp(self.net(x))
        nll = -(churned * torch.log(hazard).squeeze(1) - hazard.squeeze(1) * months).mean()
        self.opt.zero_grad()
        nll.backward()
        self.opt.step()
        mean_h, max_h = hazard_summary(hazard)
        return nll.item(), mean_h, max_h, concordance(hazard, months, churned)

    def fit(self, steps=6):
        for i in range(steps):
            nll, mean_h, max_h, cidx = self.step()
            print(f"step {i}: nll={nll:.4f} hazard_mean={mean_h:.4f} hazard_max={max_h:.4f} c={cidx:.3f}")


if __name__ == "__main__":
    ChurnTrainer().fit()
