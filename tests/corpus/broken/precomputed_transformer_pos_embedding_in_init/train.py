"""Trains TransformerForecaster on sliding windows of a synthetic 3-channel load series."""
import torch
import torch.nn.functional as F

from model import TransformerForecaster

CONTEXT, HORIZON, N_FEATURES, BATCH = 12, 3, 3, 8


def windows(series, n):
    starts = torch.randint(0, series.size(0) - CONTEXT - HORIZON, (n,))
    x = torch.stack([series[s:s + CONTEXT] for s in starts])
    y = torch.stack([series[s + CONTEXT:s + CONTEXT + HORIZON, 0] for s in starts])
    return x, y


def train(steps=5):
    torch.manual_seed(0)
    t = torch.arange(200, dtype=torch.float32)
    series = torch.stack([torch.sin(t / 6), torch.cos(t / 11), (t % 24) / 24], -1)
    model = TransformerForecaster(N_FEATURES, CONTEXT, HORIZON)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for step in range(steps):
        x, y = windows(series, BATCH)
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: mse {loss.item():.4f}")


if __name__ == "__main__":
    train()
