"""1-D diffusion denoiser for ECG-like beats trained under activation checkpointing: the
down/up blocks are wrapped with torch.utils.checkpoint (non-reentrant), the middle stack with
checkpoint_sequential (reentrant, fed by a tensor that already requires grad). Two
micro-batches are accumulated per step and an EMA copy is updated under no_grad."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
LENGTH, CH, T_STEPS, MICRO, ACCUM = 32, 16, 40, 16, 2
alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.08, T_STEPS), 0)


class ConvBlock(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv1 = nn.Conv1d(c_in, c_out, 3, padding=1)
        self.conv2 = nn.Conv1d(c_out, c_out, 3, padding=1)
        self.norm = nn.GroupNorm(4, c_out)
        self.skip = nn.Conv1d(c_in, c_out, 1)

    def forward(self, x):
        return self.skip(x) + self.conv2(F.silu(self.norm(self.conv1(x))))


class UNet1D(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_embed = nn.Embedding(T_STEPS, CH)
        self.down = ConvBlock(1, CH)
        self.middle = nn.Sequential(ConvBlock(CH, CH), ConvBlock(CH, CH), ConvBlock(CH, CH),
                                    ConvBlock(CH, CH))
        self.up = ConvBlock(2 * CH, CH)
        self.out = nn.Conv1d(CH, 1, 1)

    def forward(self, x, t):
        if not (self.training and torch.is_grad_enabled()):
            h = self.down(x) + self.t_embed(t)[:, :, None]
            m = F.interpolate(self.middle(F.avg_pool1d(h, 2)), scale_factor=2)
            return self.out(self.up(torch.cat([h, m], 1)))
        h = checkpoint(self.down, x, use_reentrant=False) + self.t_embed(t)[:, :, None]
        m = F.avg_pool1d(h, 2)
        m = checkpoint_sequential(self.middle, 2, m, use_reentrant=True)
        m = F.interpolate(m, scale_factor=2)
        h = checkpoint(self.up, torch.cat([h, m], 1), use_reentrant=False)
        return self.out(h)


def heartbeat_batch(n):
    grid = torch.linspace(-1, 1, LENGTH)
    width = 0.05 + 0.03 * torch.rand(n, 1)
    shift = 0.2 * torch.randn(n, 1)
    beat = torch.exp(-((grid - shift) ** 2) / width) - 0.3 * torch.exp(-((grid - shift - 0.3) ** 2) / 0.02)
    return beat.unsqueeze(1)


model = UNet1D()
ema = copy.deepcopy(model).requires_grad_(False).eval()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)

for step in range(5):
    optimizer.zero_grad()
    step_loss = 0.0
    for _ in range(ACCUM):
        x0 = heartbeat_batch(MICRO)
        t = torch.randint(0, T_STEPS, (MICRO,))
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None, None]
        loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise) / ACCUM
        loss.backward()
        step_loss += loss.item()
    optimizer.step()
    with torch.no_grad():
        for p_ema, p in zip(ema.parameters(), model.parameters()):
            p_ema.lerp_(p, 0.1)
    print(f"step {step}  loss {step_loss:.4f}")

with torch.no_grad():
    x0 = heartbeat_batch(8)
    t = torch.full((8,), T_STEPS // 2)
    noise = torch.randn_like(x0)
    ab = alpha_bar[t][:, None, None]
    ema_mse = F.mse_loss(ema(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise).item()
print(f"ema eval mse {ema_mse:.4f}  checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
