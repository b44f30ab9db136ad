"""DDPM on a 2-D two-moons-like point cloud: an MLP denoiser with a sinusoidal timestep
embedding predicts the added noise. A small Trainer runs epochs and end-of-epoch callbacks."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import PrintEpoch, ValidationLoss

T_STEPS = 50
betas = torch.linspace(1e-4, 0.05, T_STEPS)
alpha_bar = torch.cumprod(1 - betas, dim=0)


def timestep_embedding(t, dim=16):
    freqs = torch.exp(-math.log(1000.0) * torch.arange(dim // 2) / (dim // 2))
    angles = t.float()[:, None] * freqs[None]
    return torch.cat([angles.sin(), angles.cos()], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + 16, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, timestep_embedding(t)], dim=-1))


def moons(n, generator=None):
    angle = math.pi * torch.rand(n, generator=generator)
    upper = torch.rand(n, generator=generator) < 0.5
    x = torch.where(upper, angle.cos(), 1 - angle.cos())
    y = torch.where(upper, angle.sin(), 0.5 - angle.sin())
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2, generator=generator)


class Trainer:
    def __init__(self, model, callbacks, lr=2e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.epoch = 0
        self.last_loss = float("nan")

    def denoising_loss(self, x0, generator=None):
        t = torch.randint(0, T_STEPS, (x0.size(0),), generator=generator)
        noise = torch.randn(x0.shape, generator=generator)
        ab = alpha_bar[t][:, None]
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        pred_noise = self.model(x_t, t)
        return F.mse_loss(pred_noise, noise)

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            self.epoch = epoch
            for x0 in batches:
                loss = self.denoising_loss(x0)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.last_loss = loss.item()
            for callback in self.callbacks:
                callback.on_epoch_end(self)


torch.manual_seed(0)
train_batches = [moons(64) for _ in range(3)]
trainer = Trainer(Denoiser(), [PrintEpoch(), ValidationLoss(moons(128))])
trainer.fit(train_batches, epochs=3)
