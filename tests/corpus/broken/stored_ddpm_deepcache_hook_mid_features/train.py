"""DDPM on a 2-D two-moons toy set with a DeepCache-style speed-up during training: every
batch is trained at a few neighbouring noise levels in a row, and the expensive middle
block is only run at the first of them. A forward hook object on the middle block keeps
its latest output, and the cheaper steps that follow feed that cached output to the head."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, HID, CACHE_SPAN, N_BATCHES = 100, 64, 3, 3

betas = torch.linspace(1e-4, 0.02, T_STEPS)
alpha_bar = torch.cumprod(1.0 - betas, dim=0)


def time_embedding(t, dim=16):
    freqs = torch.exp(-math.log(1000.0) * torch.arange(dim // 2) / (dim // 2))
    angles = t.float()[:, None] * freqs[None, :]
    return torch.cat([angles.sin(), angles.cos()], dim=-1)


class MidBlockCache:
    """Forward hook: remembers the middle block's latest output for the cheap steps."""

    def __init__(self):
        self.feat = None
        self.refreshes = 0

    def __call__(self, module, inputs, output):
        self.feat = output
        self.refreshes += 1


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(2 + 16, HID)
        self.mid = nn.Sequential(nn.Linear(HID, HID), nn.SiLU(), nn.Linear(HID, HID))
        self.head = nn.Sequential(nn.SiLU(), nn.Linear(2 * HID, 2))

    def forward(self, x_t, t, cached_mid=None):
        h = F.silu(self.inp(torch.cat([x_t, time_embedding(t)], dim=-1)))
        m = self.mid(h) if cached_mid is None else cached_mid
        return self.head(torch.cat([h, m], dim=-1))


def two_moons(n):
    theta = math.pi * torch.rand(n)
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(theta), 1.0 - torch.cos(theta))
    y = torch.where(upper, torch.sin(theta), 0.5 - torch.sin(theta))
    return torch.stack([x, y], dim=-1) + 0.05 * torch.randn(n, 2)


torch.manual_seed(0)
model = Denoiser()
cache = MidBlockCache()
model.mid.register_forward_hook(cache)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)

for b in range(N_BATCHES):
    x0 = two_moons(64)
    t_start = torch.randint(CACHE_SPAN, T_STEPS, (64,))
    for k in range(CACHE_SPAN):
        t = t_start - k
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None]
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        reuse = k > 0
        eps_pred = model(x_t, t, cached_mid=cache.feat if reuse else None)
        loss = F.mse_loss(eps_pred, noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"batch {b} step {k} ({'cached' if reuse else 'full'}) loss {loss.item():.4f}")
print(f"cache refreshes {cache.refreshes}")
