"""Temporal convolutional forecaster for hourly sensor data with memory-saving in-place
ops: in-place ReLUs after BatchNorm, `out += identity` on the residual branch, an
in-place imputation of missing readings, gradient accumulation over two micro-batches
and in-place clipping of the head weights after every optimizer step."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CHANNELS, LAGS, HORIZON = 3, 32, 6


class CausalResBlock(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.pad = 2 * dilation
        self.conv1 = nn.Conv1d(ch, ch, 3, dilation=dilation)
        self.bn1 = nn.BatchNorm1d(ch)
        self.conv2 = nn.Conv1d(ch, ch, 3, dilation=dilation)
        self.bn2 = nn.BatchNorm1d(ch)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(F.pad(x, (self.pad, 0)))))
        out = self.bn2(self.conv2(F.pad(out, (self.pad, 0))))
        out += identity
        return F.relu(out, inplace=True)


class TCNForecaster(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.stem = nn.Conv1d(CHANNELS, hidden, 1)
        self.blocks = nn.Sequential(*[CausalResBlock(hidden, d) for d in (1, 2, 4)])
        self.head = nn.Linear(hidden, HORIZON)

    def forward(self, x):
        h = self.blocks(self.stem(x))
        return self.head(h[:, :, -1])


def make_windows(n):
    t = torch.arange(LAGS + HORIZON) + 100 * torch.rand(n, 1)
    base = torch.sin(2 * math.pi * t / 24)
    series = torch.stack([base, 0.5 * base.roll(3, dims=1), torch.cos(2 * math.pi * t / 12)], 1)
    series = series + 0.05 * torch.randn(series.shape)
    x, y = series[:, :, :LAGS].clone(), series[:, 0, LAGS:]
    missing = torch.rand(x.shape) < 0.05
    x[missing] = 0.0  # impute dropped readings in place (plain data, no graph)
    return x, y


model = TCNForecaster()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
ACCUM = 2

for step in range(5):
    optimizer.zero_grad()
    total = 0.0
    for micro in range(ACCUM):
        x, y = make_windows(16)
        loss = F.smooth_l1_loss(model(x), y) / ACCUM
        loss.backward()
        total += loss.item()
    optimizer.step()
    with torch.no_grad():
        model.head.weight.clamp_(-0.5, 0.5)
    print(f"step {step} loss {total:.5f}")

model.eval()
with torch.no_grad():
    x, y = make_windows(64)
    print(f"eval mae {(model(x) - y).abs().mean().item():.5f}")
checksum = sum(p.detach().double().sum().item() for p in model.parameters())
print(f"param checksum {checksum:.6f}")
