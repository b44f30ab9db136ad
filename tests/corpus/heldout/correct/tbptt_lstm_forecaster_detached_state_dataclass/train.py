"""Truncated backpropagation through time for a wind-power forecaster: one long multivariate
series is cut into consecutive chunks; the LSTM state is carried across chunks in a small
dataclass and detached at every chunk boundary, so gradients stop at the chunk while the
state itself continues."""
import math
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)
CHUNK, N_FEATURES, HIDDEN = 12, 3, 20


@dataclass
class StreamState:
    hc: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
    chunks_seen: int = 0

    def truncate(self):
        if self.hc is not None:
            self.hc = tuple(t.detach() for t in self.hc)


class PowerForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(N_FEATURES, HIDDEN, num_layers=1, batch_first=True)
        self.out = nn.Linear(HIDDEN, 1)

    def forward(self, x, hc):
        h, hc = self.lstm(x, hc)
        return self.out(h).squeeze(-1), hc


def wind_series(n_sites, length):
    t = torch.arange(length, dtype=torch.float32)
    speed = 6 + 3 * torch.sin(2 * math.pi * t / 48) + torch.randn(n_sites, length).cumsum(1) * 0.1
    direction = torch.cos(2 * math.pi * t / 100).expand(n_sites, length)
    power = torch.clamp((speed / 12) ** 3, max=1.0)
    return torch.stack([speed / 10, direction, power], dim=-1), power


model = PowerForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
features, power = wind_series(n_sites=4, length=CHUNK * 6 + 1)
state = StreamState()
for start in range(0, features.size(1) - 1, CHUNK):
    state.truncate()
    x = features[:, start:start + CHUNK]
    y = power[:, start + 1:start + CHUNK + 1]
    pred, state.hc = model(x, state.hc)
    loss = F.mse_loss(pred, y)
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    state.chunks_seen += 1
    print(f"chunk {state.chunks_seen} mse {loss.item():.6f}")

print(f"parameter checksum {sum(p.double().sum().item() for p in model.parameters()):.6f}")
