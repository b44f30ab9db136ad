"""Hierarchical retail forecasting: a shared GRU forecaster predicts next-week sales of 4
stores; the region total is the sum of the store forecasts (bottom-up reconciliation).
Forecasts are clipped to be non-negative and reconciled with NumPy, the same code the
reporting job uses, and the loss is taken on stores and region together."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_STORES, WEEKS, HID, EPOCHS = 4, 12, 16, 6
SUMMING = np.vstack([np.eye(N_STORES), np.ones((1, N_STORES))])


def reconcile(store_forecasts):
    bottom = np.clip(store_forecasts, 0.0, None)
    return bottom @ SUMMING.T


class StoreForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(1, HID, batch_first=True)
        self.head = nn.Linear(HID, 1)

    def forward(self, history):
        _, h_n = self.gru(history.unsqueeze(-1))
        return self.head(h_n[-1]).squeeze(-1)


def train():
    torch.manual_seed(0)
    t = torch.arange(WEEKS + 1, dtype=torch.float)
    sales = 2 + torch.rand(N_STORES, 1) + 0.5 * torch.sin(t / 2 + torch.rand(N_STORES, 1) * 3)
    history, next_week = sales[:, :-1], sales[:, -1]
    target = torch.tensor(reconcile(next_week.numpy()[None, :]), dtype=torch.float)
    model = StoreForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(EPOCHS):
        store_pred = model(history)
        coherent = torch.tensor(reconcile(store_pred.detach().numpy()[None, :]),
                                dtype=torch.float, requires_grad=True)
        loss = F.mse_loss(coherent, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} mse {loss.item():.4f} region forecast {coherent[0, -1].item():.3f}")
    return model


if __name__ == "__main__":
    train()
