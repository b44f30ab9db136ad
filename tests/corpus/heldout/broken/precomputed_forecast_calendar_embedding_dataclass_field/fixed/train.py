"""Hourly electricity-load forecaster: an MLP over the last 24 hours of load plus learned
hour-of-day / day-of-week embeddings for each hour of the 6-hour horizon."""
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, CAL_DIM = 24, 6, 4


@dataclass
class SeriesContext:
    """Everything about the training series that does not change between batches."""
    hour: torch.Tensor
    weekday: torch.Tensor
    scale: torch.Tensor
    calendar: Optional[torch.Tensor] = None


class LoadForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.hour_emb = nn.Embedding(24, CAL_DIM)
        self.day_emb = nn.Embedding(7, CAL_DIM)
        self.mlp = nn.Sequential(
            nn.Linear(LOOKBACK + HORIZON * CAL_DIM, 64), nn.ReLU(), nn.Linear(64, HORIZON))

    def calendar_features(self, hour, weekday):
        return self.hour_emb(hour) + self.day_emb(weekday)

    def forward(self, history, future_calendar):
        return self.mlp(torch.cat([history, future_calendar.flatten(1)], dim=1))


def make_series(n_hours=24 * 14):
    t = torch.arange(n_hours, dtype=torch.float32)
    daily = torch.sin(2 * torch.pi * t / 24)
    weekly = 0.5 * (((t // 24) % 7) >= 5).float()
    return 3.0 + daily - weekly + 0.1 * torch.randn(n_hours)


def sample_windows(series, batch_size):
    starts = torch.randint(0, series.numel() - LOOKBACK - HORIZON, (batch_size,))
    history = torch.stack([series[s:s + LOOKBACK] for s in starts])
    target = torch.stack([series[s + LOOKBACK:s + LOOKBACK + HORIZON] for s in starts])
    return starts, history, target


def main(steps=6, batch_size=16):
    torch.manual_seed(0)
    series = make_series()
    hours = torch.arange(series.numel())
    ctx = SeriesContext(hour=hours % 24, weekday=(hours // 24) % 7, scale=series.abs().mean())
    model = LoadForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        ctx.calendar = model.calendar_features(ctx.hour, ctx.weekday)
        starts, history, target = sample_windows(series / ctx.scale, batch_size)
        horizon_idx = starts[:, None] + LOOKBACK + torch.arange(HORIZON)
        pred = model(history, ctx.calendar[horizon_idx])
        loss = F.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} mse {loss.item():.5f}")


if __name__ == "__main__":
    main()
