"""Forecast the next 3 readings of noisy sine sensors whose histories have different lengths."""
import torch
import torch.nn.functional as F

from model import AttentionForecaster

torch.manual_seed(0)
MAX_LEN, HORIZON = 12, 3


def make_batch(n):
    lengths = torch.randint(6, MAX_LEN + 1, (n,))
    phase = torch.rand(n, 1) * 6.28
    steps = torch.arange(MAX_LEN + HORIZON).float()
    series = torch.sin(0.5 * steps + phase) + 0.05 * torch.randn(n, MAX_LEN + HORIZON)
    history, future = series[:, :MAX_LEN], series[:, MAX_LEN:]
    pad_mask = steps[:MAX_LEN] < (MAX_LEN - lengths)[:, None]
    return history.masked_fill(pad_mask, 0.0), pad_mask, future


def fit(model, epochs=5):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        history, pad_mask, future = make_batch(64)
        pred = model(history, pad_mask)
        loss = F.mse_loss(pred, future)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} mse {loss.item():.4f}")


fit(AttentionForecaster(horizon=HORIZON))
