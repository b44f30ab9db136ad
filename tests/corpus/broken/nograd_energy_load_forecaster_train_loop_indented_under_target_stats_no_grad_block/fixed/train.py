"""Day-ahead household load forecasting from the previous 24 hourly readings."""
import math

import torch
import torch.nn as nn

WINDOW, HORIZON = 24, 6


def make_series(n_days=20):
    t = torch.arange(n_days * 24, dtype=torch.float32)
    daily = 1.5 + torch.sin(2 * math.pi * t / 24) + 0.3 * torch.sin(2 * math.pi * t / 168)
    return daily + 0.1 * torch.randn_like(t)


def windows(series):
    xs, ys = [], []
    for s in range(0, len(series) - WINDOW - HORIZON, 6):
        xs.append(series[s:s + WINDOW])
        ys.append(series[s + WINDOW:s + WINDOW + HORIZON])
    return torch.stack(xs), torch.stack(ys)


class LoadMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(WINDOW, 48), nn.GELU(), nn.Linear(48, HORIZON))

    def forward(self, x):
        return self.body(x)


def main():
    torch.manual_seed(3)
    x, y = windows(make_series())
    model = LoadMLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

    with torch.no_grad():
        mean, std = x.mean(), x.std()
        baseline = (y - x[:, -HORIZON:]).abs().mean()
        print(f"persistence MAE {baseline.item():.4f}")

    for epoch in range(4):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 16):
            idx = perm[i:i + 16]
            pred = model((x[idx] - mean) / std) * std + mean
            loss = nn.functional.l1_loss(pred, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} MAE {loss.item():.4f}")


if __name__ == "__main__":
    main()
