"""Autoregressive forecaster: the previous prediction is fed back in as an input feature."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_FEAT, BATCH, STEPS = 3, 8, 5


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FEAT + 1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


model = Forecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
series = torch.randn(STEPS, BATCH, N_FEAT)
targets = series.sum(-1, keepdim=True).cumsum(0) * 0.5

prev = torch.zeros(BATCH, 1)
for t in range(STEPS):
    optimizer.zero_grad()
    prev = prev.detach()
    prev = model(torch.cat([series[t], prev], -1))
    loss = nn.functional.mse_loss(prev, targets[t])
    loss.backward()
    optimizer.step()
    print(f"step {t} loss {loss.item():.4f}")
