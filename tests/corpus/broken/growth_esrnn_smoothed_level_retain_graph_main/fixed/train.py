"""ES-RNN-style hybrid forecaster on a stream of daily sales for 8 stores: a learnable
per-store smoothing coefficient keeps a running level, an MLP forecasts the next days
from the level-normalised window. The stream is consumed window by window and the level
is carried forward. retain_graph=True was added when the second window raised
'Trying to backward through the graph a second time'."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_STORES, WINDOW, HORIZON, STEPS = 8, 14, 7, 10


class ESHybrid(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha_logit = nn.Parameter(torch.zeros(N_STORES))
        self.mlp = nn.Sequential(nn.Linear(WINDOW, 32), nn.Tanh(), nn.Linear(32, HORIZON))

    def smoothing(self):
        return torch.sigmoid(self.alpha_logit)

    def forecast(self, window, level):
        return self.mlp(window / level.unsqueeze(1)) * level.unsqueeze(1)


def sales_stream(n_days):
    t = torch.arange(n_days, dtype=torch.float32)
    base = 50 + 30 * torch.rand(N_STORES, 1)
    trend = 0.2 * torch.randn(N_STORES, 1) * t
    weekly = 5 * torch.sin(2 * torch.pi * t / 7)
    return (base + trend + weekly + 2 * torch.randn(N_STORES, n_days)).clamp(min=1.0)


def main():
    torch.manual_seed(0)
    series = sales_stream(WINDOW + HORIZON * (STEPS + 1))
    model = ESHybrid()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    level = series[:, :WINDOW].mean(1)
    for step in range(STEPS):
        start = step * HORIZON
        window = series[:, start:start + WINDOW]
        target = series[:, start + WINDOW:start + WINDOW + HORIZON]
        level = level.detach()
        alpha = model.smoothing()
        for day in range(WINDOW):
            level = alpha * window[:, day] + (1 - alpha) * level
        loss = F.l1_loss(model.forecast(window, level), target) / target.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"window {step} scaled MAE {loss.item():.4f} alpha {alpha.mean().item():.3f}")
    return loss.item()


if __name__ == "__main__":
    main()
