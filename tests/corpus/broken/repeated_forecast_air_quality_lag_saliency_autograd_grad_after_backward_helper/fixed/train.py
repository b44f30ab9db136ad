"""Next-hour PM2.5 forecaster from the last 24 hours of PM2.5, temperature, wind speed and
humidity, with a dilated causal CNN. Every other step the training loop logs which lags
the model relies on (gradient x input saliency)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from explain import lag_saliency

N_VARS, LOOKBACK, BATCH = 4, 24, 32


class CausalCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(N_VARS, 16, kernel_size=3, dilation=1)
        self.conv2 = nn.Conv1d(16, 16, kernel_size=3, dilation=2)
        self.conv3 = nn.Conv1d(16, 16, kernel_size=3, dilation=4)
        self.out = nn.Linear(16, 1)

    def forward(self, window):
        x = F.gelu(self.conv1(F.pad(window, (2, 0))))
        x = F.gelu(self.conv2(F.pad(x, (4, 0))))
        x = F.gelu(self.conv3(F.pad(x, (8, 0))))
        return self.out(x[:, :, -1]).squeeze(-1)


def air_quality_batch(gen):
    """PM2.5 follows a daily cycle, builds up when wind is low, and is washed out by humidity."""
    t0 = torch.randint(0, 24 * 30, (BATCH, 1), generator=gen).float()
    t = t0 + torch.arange(LOOKBACK + 1).float()
    temp = torch.sin(2 * math.pi * (t - 6) / 24) + 0.1 * torch.randn(t.shape, generator=gen)
    wind = 0.5 + 0.5 * torch.rand(BATCH, 1, generator=gen) + 0.2 * torch.randn(t.shape, generator=gen)
    humid = torch.cos(2 * math.pi * t / 24) + 0.1 * torch.randn(t.shape, generator=gen)
    pm = torch.zeros_like(t)
    for h in range(1, t.shape[1]):
        pm[:, h] = 0.8 * pm[:, h - 1] + 0.4 * (1.2 - wind[:, h]) - 0.2 * humid[:, h] + 0.1 * temp[:, h - 1]
    series = torch.stack([pm, temp, wind, humid], dim=1)  # (batch, vars, lags + 1)
    return series[:, :, :-1], series[:, 0, -1]


torch.manual_seed(0)
gen = torch.Generator().manual_seed(8)
model = CausalCNN()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(6):
    window, target = air_quality_batch(gen)
    window.requires_grad_(True)
    loss = F.mse_loss(model(window), target)
    optimizer.zero_grad()
    loss.backward(retain_graph=step % 2 == 0)
    if step % 2 == 0:
        print(f"  step {step} most salient lags (hours back): {lag_saliency(loss, window)}")
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
