"""Tiny DDPM on a 2-D two-moons point cloud: an MLP predicts the noise added at a random
timestep. To smooth the noisy per-batch objective, train() backpropagates the running mean
of the losses seen so far."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS = 50


def two_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
    pick = (torch.rand(n) < 0.5).float()[:, None]
    return pick * upper + (1 - pick) * lower + 0.05 * torch.randn(n, 2)


class NoisePredictor(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.time_embed = nn.Embedding(T_STEPS, hidden)
        self.inp = nn.Linear(2, hidden)
        self.net = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x_t, t):
        return self.net(self.inp(x_t) + self.time_embed(t))


def train(model, optimizer, steps, batch=128):
    betas = torch.linspace(1e-4, 0.05, T_STEPS)
    alpha_bar = torch.cumprod(1 - betas, dim=0)
    loss_sum = 0.0
    for step in range(steps):
        x0 = two_moons(batch)
        t = torch.randint(0, T_STEPS, (batch,))
        noise = torch.randn_like(x0)
        a = alpha_bar[t][:, None]
        x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = F.mse_loss(model(x_t, t), noise)
        loss_sum = loss_sum + loss.item()
        smoothed = loss_sum / (step + 1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} smoothed {smoothed:.4f}")
    return loss_sum / steps


if __name__ == "__main__":
    torch.manual_seed(0)
    model = NoisePredictor()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    final = train(model, optimizer, steps=6)
    print(f"mean loss {float(final):.4f}")
