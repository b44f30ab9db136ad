"""Day-ahead electricity spot-price forecaster. Besides the last day's hourly prices it is
conditioned on a slowly drifting 'market regime' vector, a leaky average of projected market
indicators (gas price, load, wind share) carried from one trading day to the next."""
import torch
import torch.nn as nn
import torch.nn.functional as F

HOURS, MARKET_FEATS, REGIME = 24, 3, 6


class SpotPriceModel(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.regime_proj = nn.Linear(MARKET_FEATS, REGIME)
        self.encoder = nn.Sequential(nn.Linear(HOURS, hidden), nn.ReLU())
        self.head = nn.Linear(hidden + REGIME, HOURS)

    def forward(self, last_day, regime):
        h = self.encoder(last_day)
        return self.head(torch.cat([h, regime.expand(h.size(0), -1)], dim=-1))


def make_step(model, optimizer, decay=0.9):
    regime = torch.zeros(REGIME)

    def step(last_day, next_day, market):
        nonlocal regime
        regime = decay * regime + (1 - decay) * torch.tanh(model.regime_proj(market)).mean(0)
        pred = model(last_day, regime)
        loss = F.smooth_l1_loss(pred, next_day)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)  # regime is carried into the next day
        optimizer.step()
        return loss.item()

    return step


def trading_days(n_days, zones, gen):
    hours = torch.arange(HOURS, dtype=torch.float32)
    daily_shape = 1.0 + 0.4 * torch.sin((hours - 6) / 24 * 6.28)
    gas = 1.0
    for _ in range(n_days):
        gas = gas * (1 + 0.05 * float(torch.randn(1, generator=gen)))
        market = torch.stack([torch.full((zones,), gas),
                              1 + 0.1 * torch.randn(zones, generator=gen),
                              torch.rand(zones, generator=gen)], dim=-1)
        level = gas * (1.2 - 0.5 * market[:, 2:3])
        today = level * daily_shape + 0.05 * torch.randn(zones, HOURS, generator=gen)
        tomorrow = level * daily_shape + 0.05 * torch.randn(zones, HOURS, generator=gen)
        yield today, tomorrow, market


def main(n_days=8):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    model = SpotPriceModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    step = make_step(model, optimizer)
    for day, (today, tomorrow, market) in enumerate(trading_days(n_days, 5, gen)):
        print(f"day {day} loss {step(today, tomorrow, market):.4f}")


if __name__ == "__main__":
    main()
