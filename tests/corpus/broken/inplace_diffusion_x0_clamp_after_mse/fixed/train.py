"""Tiny DDPM that predicts the clean sample x0 directly (x0-parameterisation) on 8x8
stripe patterns scaled to [-1, 1]. Each step also logs the PSNR of the clamped x0 guess."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, SIDE = 50, 8
DIM = SIDE * SIDE
betas = torch.linspace(1e-4, 0.05, T_STEPS)
alphas_bar = torch.cumprod(1.0 - betas, dim=0)


def sample_patterns(n):
    phase = torch.rand(n, 1) * 2 * math.pi
    freq = torch.randint(1, 4, (n, 1)).float()
    cols = torch.arange(SIDE).float().repeat(SIDE)
    return torch.sin(freq * cols * 2 * math.pi / SIDE + phase)


class Denoiser(nn.Module):
    def __init__(self, hidden=128, t_dim=16):
        super().__init__()
        self.t_embed = nn.Embedding(T_STEPS, t_dim)
        self.net = nn.Sequential(
            nn.Linear(DIM + t_dim, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, DIM),
        )

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, self.t_embed(t)], dim=1))


def psnr_db(pred, target):
    mse = F.mse_loss(pred, target).item()
    return 10 * math.log10(4.0 / max(mse, 1e-10))


def train(steps=6, batch=32):
    torch.manual_seed(0)
    model = Denoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        x0 = sample_patterns(batch)
        t = torch.randint(0, T_STEPS, (batch,))
        noise = torch.randn_like(x0)
        ab = alphas_bar[t].unsqueeze(1)
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        x0_pred = model(x_t, t)
        loss = F.mse_loss(x0_pred, x0)
        with torch.no_grad():
            psnr = psnr_db(x0_pred.clamp(-1.0, 1.0), x0)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} psnr {psnr:.2f} dB")
    return model


if __name__ == "__main__":
    train()
