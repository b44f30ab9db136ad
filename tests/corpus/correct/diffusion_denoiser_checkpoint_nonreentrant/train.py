"""DDPM-style noise-prediction training of a small MLP denoiser with activation checkpointing.

The stem and every residual block run under torch.utils.checkpoint with
use_reentrant=False. The stem's input (the noisy sample x_t) does not require grad; with
the reentrant implementation the stem's weights would get no gradient, the non-reentrant
one handles it, so every layer trains.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(10)
T_STEPS, DIM = 50, 16


def timestep_embedding(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
    args = t.float().unsqueeze(1) * freqs
    return torch.cat([torch.sin(args), torch.cos(args)], dim=1)


class ResBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.fc1, self.fc2 = nn.Linear(width, width), nn.Linear(width, width)
        self.temb = nn.Linear(16, width)

    def forward(self, h, temb):
        x = F.silu(self.fc1(self.norm(h)) + self.temb(temb))
        return h + self.fc2(x)


class Denoiser(nn.Module):
    def __init__(self, width=48, depth=3):
        super().__init__()
        self.stem = nn.Linear(DIM, width)
        self.blocks = nn.ModuleList(ResBlock(width) for _ in range(depth))
        self.out = nn.Linear(width, DIM)

    def forward(self, x_t, t):
        temb = timestep_embedding(t)
        h = checkpoint(self.stem, x_t, use_reentrant=False)
        for block in self.blocks:
            h = checkpoint(block, h, temb, use_reentrant=False)
        return self.out(h)


betas = torch.linspace(1e-4, 0.05, T_STEPS)
alpha_bar = torch.cumprod(1 - betas, dim=0)
model = Denoiser()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
data = torch.randn(256, DIM) @ torch.randn(DIM, DIM) * 0.3

for step in range(6):
    x0 = data[step * 32:(step + 1) * 32]
    t = torch.randint(0, T_STEPS, (x0.shape[0],))
    noise = torch.randn_like(x0)
    ab = alpha_bar[t].unsqueeze(1)
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
    loss = F.mse_loss(model(x_t, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f} stem grad {model.stem.weight.grad.norm().item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
