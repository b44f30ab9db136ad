"""Streaming load forecaster: a GRU cell reads a long electricity-load series window by window,
carrying its state across windows, and predicts the next reading after each window.
The backward was changed to a re-enabled copy of the loss after
"Trying to backward through the graph a second time"."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
HIDDEN, WINDOW, N_SERIES = 24, 6, 4


class StreamingForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(2, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, window, h):
        for t in range(window.shape[1]):
            hour = torch.full_like(window[:, t], (t % 24) / 24)
            h = self.cell(torch.tanh(self.inp(torch.stack([window[:, t], hour], 1))), h)
        return self.head(h).squeeze(-1), h


def load_series(length):
    t = torch.arange(length).float()
    daily = torch.sin(2 * math.pi * t / 24)
    scale = 1 + 0.5 * torch.rand(N_SERIES, 1)
    return scale * daily + 0.1 * torch.randn(N_SERIES, length)


series = load_series(WINDOW * 12 + 1)
model = StreamingForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
h = torch.zeros(N_SERIES, HIDDEN)

for i in range(12):
    window = series[:, i * WINDOW:(i + 1) * WINDOW]
    target = series[:, (i + 1) * WINDOW]
    pred, h = model(window, h.detach())
    loss = F.mse_loss(pred, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"window {i} mse {loss.item():.4f}")
