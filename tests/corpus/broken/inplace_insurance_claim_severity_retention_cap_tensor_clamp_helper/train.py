"""Claim-severity model for motor insurance: an MLP with a region embedding predicts the
expected claim amount (log link) from policy features."""
import torch
import torch.nn as nn

from pricing import cap_at_retention, gamma_deviance

torch.manual_seed(0)
REGIONS, NUM = 6, 5


class SeverityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.region = nn.Embedding(REGIONS, 3)
        self.body = nn.Sequential(nn.Linear(NUM + 3, 16), nn.SiLU(), nn.Linear(16, 1))

    def forward(self, num, region):
        log_sev = self.body(torch.cat([num, self.region(region)], dim=1)).squeeze(1)
        return torch.exp(log_sev + 1.5)


def make_portfolio(n):
    num = torch.randn(n, NUM)  # driver age, vehicle value, power, bonus-malus, density
    region = torch.randint(0, REGIONS, (n,))
    mu = 1.5 + 0.4 * num[:, 1] + 0.2 * num[:, 2] + 0.1 * region.float()
    claims = torch.exp(mu + 0.6 * torch.randn(n))
    return num, region, claims


def train(epochs=2, batch=32):
    num, region, claims = make_portfolio(128)
    model = SeverityNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for start in range(0, len(claims), batch):
            sl = slice(start, start + batch)
            sev = model(num[sl], region[sl])
            sev, target = cap_at_retention(sev, claims[sl])
            loss = gamma_deviance(sev, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {start // batch} deviance {loss.item():.4f}")


if __name__ == "__main__":
    train()
