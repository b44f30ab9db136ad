"""Streaming multivariate forecaster built on a diagonal linear state-space layer (S4D-style,
real parameterisation). Each long sensor series is fed window by window; the scan closure keeps
the SSM state between windows so a window starts where the previous one ended."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CHANNELS, WIDTH, STATE, WINDOW = 3, 8, 16, 12


class DiagonalSSM(nn.Module):
    def __init__(self, d_model, n_state):
        super().__init__()
        self.log_rate = nn.Parameter(torch.log(torch.linspace(0.05, 0.8, n_state)))
        self.B = nn.Linear(d_model, n_state, bias=False)
        self.C = nn.Linear(n_state, d_model)
        self.D = nn.Parameter(torch.ones(d_model))

    def step(self, u_t, s):
        decay = torch.exp(-torch.exp(self.log_rate))
        s = decay * s + self.B(u_t)
        return self.C(s) + self.D * u_t, s


class SSMForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(CHANNELS, WIDTH)
        self.ssm = DiagonalSSM(WIDTH, STATE)
        self.norm = nn.LayerNorm(WIDTH)
        self.head = nn.Linear(WIDTH, CHANNELS)


def make_streaming_scan(model, batch):
    state = torch.zeros(batch, STATE)

    def scan(window):
        nonlocal state
        u = F.gelu(model.embed(window))
        s, outs = state, []
        for t in range(window.size(1)):
            y, s = model.ssm.step(u[:, t], s)
            outs.append(y)
        state = s.detach()
        return model.head(model.norm(torch.stack(outs, 1) + u))

    def reset():
        nonlocal state
        state = torch.zeros(batch, STATE)

    return scan, reset


def sensor_series(batch, length):
    t = torch.arange(length, dtype=torch.float32)
    phase = torch.rand(batch, 1, CHANNELS) * 2 * math.pi
    period = torch.tensor([24.0, 12.0, 7.0])
    clean = torch.sin(2 * math.pi * t[None, :, None] / period + phase)
    return clean + 0.1 * torch.randn(batch, length, CHANNELS)


def train(epochs=1, n_windows=5, batch=4):
    torch.manual_seed(0)
    model = SSMForecaster()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    series = sensor_series(batch, n_windows * WINDOW + 1)
    scan, reset = make_streaming_scan(model, batch)
    for epoch in range(epochs):
        reset()
        for w in range(n_windows):
            lo = w * WINDOW
            inputs = series[:, lo:lo + WINDOW]
            targets = series[:, lo + 1:lo + WINDOW + 1]
            preds = scan(inputs)
            loss = F.mse_loss(preds, targets)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            print(f"epoch {epoch} window {w} mse {loss.item():.4f}")
    return model


if __name__ == "__main__":
    train()
