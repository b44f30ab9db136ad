"""GRU forecaster for a panel of retail demand series (weekly seasonality, per-store
level). Windows are processed in small micro-batches and the loss is accumulated over
ACCUM micro-batches before each optimizer step, to mimic a larger batch."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, MICRO, ACCUM = 21, 7, 8, 2


class GRUForecaster(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.inp = nn.Linear(2, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, HORIZON)

    def forward(self, history, day_of_week):
        x = torch.stack([history, torch.sin(2 * math.pi * day_of_week / 7)], dim=-1)
        _, h = self.gru(torch.tanh(self.inp(x)))
        return self.out(h[-1])


def demand_windows(n, gen):
    level = 5 + 3 * torch.rand(n, 1, generator=gen)
    start = torch.randint(0, 7, (n, 1), generator=gen)
    days = start + torch.arange(LOOKBACK + HORIZON)
    series = level * (1 + 0.3 * torch.sin(2 * math.pi * days / 7))
    series = series + 0.3 * torch.randn(series.shape, generator=gen)
    scale = series[:, :LOOKBACK].mean(dim=1, keepdim=True)
    series = series / scale
    return series[:, :LOOKBACK], days[:, :LOOKBACK].float(), series[:, LOOKBACK:]


def train_epoch(model, optimizer, data):
    history, dow, target = data
    window_loss = 0.0
    losses = []
    optimizer.zero_grad()
    for k, start in enumerate(range(0, len(target), MICRO), start=1):
        sl = slice(start, start + MICRO)
        loss = F.l1_loss(model(history[sl], dow[sl]), target[sl])
        window_loss = window_loss + loss / ACCUM
        if k % ACCUM == 0:
            window_loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            losses.append(window_loss.item())
            window_loss.zero_()
    return sum(losses) / len(losses)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    data = demand_windows(4 * MICRO * ACCUM, gen)
    model = GRUForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(2):
        print(f"epoch {epoch} mae {train_epoch(model, optimizer, data):.4f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
