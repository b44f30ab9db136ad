"""DDPM-style noise-prediction training on a 2-D two-moons toy dataset."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import BaseTrainer

T = 50


class PointDenoiser(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.time_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(2, hidden)
        self.mid = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 2)

    def forward(self, x, t):
        h = F.silu(self.inp(x) + self.time_embed(t))
        h = F.silu(self.mid(h))
        return self.out(h)


def two_moons(n, g):
    angle = math.pi * torch.rand(n, generator=g)
    upper = torch.stack([angle.cos(), angle.sin()], dim=1)
    lower = torch.stack([1 - angle.cos(), 0.5 - angle.sin()], dim=1)
    pick = (torch.rand(n, 1, generator=g) < 0.5).float()
    return pick * upper + (1 - pick) * lower + 0.05 * torch.randn(n, 2, generator=g)


class DenoiserTrainer(BaseTrainer):
    def __init__(self, model, optimizer, max_norm=1.0):
        super().__init__(model, optimizer)
        self.max_norm = max_norm
        betas = torch.linspace(1e-4, 0.05, T)
        self.alpha_bar = torch.cumprod(1 - betas, dim=0)

    def training_step(self, batch):
        t = torch.randint(0, T, (batch.shape[0],))
        noise = torch.randn_like(batch)
        ab = self.alpha_bar[t].unsqueeze(1)
        noisy = ab.sqrt() * batch + (1 - ab).sqrt() * noise
        loss = F.mse_loss(self.model(noisy, t), noise)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    data = two_moons(64, g)
    loader = list(data.split(16))
    model = PointDenoiser()
    trainer = DenoiserTrainer(model, torch.optim.Adam(model.parameters(), lr=2e-3))
    trainer.fit(loader, epochs=2)
