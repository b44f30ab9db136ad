"""Multi-step load forecaster: a GRU reads a 24-step window of a daily-cycle series and predicts
the next 4 values. fit() validates on a held-out stretch after every update and stops early
when the validation loss stops improving; the EarlyStopping helper keeps the whole
validation curve for the final report."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
WINDOW, HORIZON, BATCH = 24, 4, 16


def load_series(n):
    t = torch.arange(n, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * t / 24) + 0.4 * torch.sin(2 * math.pi * t / 12)
    return daily + 0.002 * t + 0.1 * torch.randn(n)


def windows(series):
    idx = torch.arange(len(series) - WINDOW - HORIZON + 1)
    x = torch.stack([series[i:i + WINDOW] for i in idx])
    y = torch.stack([series[i + WINDOW:i + WINDOW + HORIZON] for i in idx])
    return x.unsqueeze(-1), y


class GRUForecaster(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, HORIZON)

    def forward(self, x):
        _, h = self.gru(x)
        return self.head(h[-1])


class EarlyStopping:
    def __init__(self, patience=5, min_delta=1e-4):
        self.patience, self.min_delta = patience, min_delta
        self.history = []
        self.best, self.bad_checks = float("inf"), 0

    def step(self, val_loss):
        self.history.append(val_loss)
        if val_loss < self.best - self.min_delta:
            self.best, self.bad_checks = val_loss.item(), 0
        else:
            self.bad_checks += 1
        return self.bad_checks >= self.patience


def evaluate(model, x_val, y_val):
    model.eval()
    loss = F.mse_loss(model(x_val), y_val)
    model.train()
    return loss


def fit(model, x_train, y_train, x_val, y_val, max_steps=12):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    stopper = EarlyStopping()
    for step in range(max_steps):
        idx = torch.randint(0, len(x_train), (BATCH,))
        loss = F.mse_loss(model(x_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        val_loss = evaluate(model, x_val, y_val)
        print(f"step {step} train {loss.item():.4f} val {val_loss.item():.4f}")
        if stopper.step(val_loss):
            print(f"early stop at step {step}")
            break
    return stopper


series = load_series(24 * 8)
x, y = windows(series)
split = int(0.8 * len(x))
stopper = fit(GRUForecaster(), x[:split], y[:split], x[split:], y[split:])
curve = " ".join(f"{v.item():.3f}" for v in stopper.history)
print(f"best val {stopper.best:.4f} curve {curve}")
