"""Next-step electricity-load forecasting for a few buildings from irregularly sampled smart
meter readings, with a liquid (CfC) recurrent network. The meter stream is long, so it is
fed in consecutive windows and the CfC state is handed from one window to the next.

The first version raised "Trying to backward through the graph a second time" on the
second window; retain_graph=True was added to the backward call to get past it."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from cfc import CfC

torch.manual_seed(0)
N_BUILDINGS, N_FEATURES, HIDDEN, WINDOW, N_WINDOWS = 4, 3, 12, 10, 5


class LoadForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = CfC(N_FEATURES, HIDDEN)
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, readings, hx, timespans):
        states, hx = self.rnn(readings, hx, timespans)
        return self.head(states).squeeze(-1), hx


def meter_stream():
    """Load (daily cycle + noise), hour-of-day encoding, and the gaps between readings."""
    steps = WINDOW * N_WINDOWS + 1
    gaps = 0.5 + torch.rand(N_BUILDINGS, steps)
    clock = gaps.cumsum(dim=1)
    phase = 2 * math.pi * clock / 24.0
    load = 1.0 + 0.5 * torch.sin(phase) + 0.05 * torch.randn(N_BUILDINGS, steps)
    features = torch.stack([load, torch.sin(phase), torch.cos(phase)], dim=-1)
    return features, load, gaps


def fit(model, optimizer):
    features, load, gaps = meter_stream()
    hx = None
    for w in range(N_WINDOWS):
        sl = slice(w * WINDOW, (w + 1) * WINDOW)
        target = load[:, w * WINDOW + 1:(w + 1) * WINDOW + 1]
        pred, hx = model(features[:, sl], hx, gaps[:, sl])
        loss = F.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        print(f"window {w} mse {loss.item():.4f}")


model = LoadForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
fit(model, optimizer)
