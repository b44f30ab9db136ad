"""Denoising diffusion on 8-dimensional vectors with a residual MLP denoiser. Each
residual block carries an ActivationMonitor forward hook that keeps a moving average of
the block's output RMS, printed to catch exploding activations early."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DIM, HIDDEN, T_STEPS, BATCH = 8, 32, 100, 64
alphas_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T_STEPS), dim=0)


class ResBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.fc = nn.Linear(width, width)

    def forward(self, h):
        return h + self.fc(F.silu(self.norm(h)))


class Denoiser(nn.Module):
    def __init__(self, n_blocks=3):
        super().__init__()
        self.inp = nn.Linear(DIM + 16, HIDDEN)
        self.blocks = nn.ModuleList(ResBlock(HIDDEN) for _ in range(n_blocks))
        self.out = nn.Linear(HIDDEN, DIM)

    def forward(self, x_t, t):
        freqs = torch.exp(-math.log(1000) * torch.arange(8) / 8)
        t_emb = torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], dim=1)
        h = self.inp(torch.cat([x_t, t_emb], dim=1))
        for block in self.blocks:
            h = block(h)
        return self.out(h)


class ActivationMonitor:
    """Forward hook: exponential moving average of the RMS of a module's output."""

    def __init__(self, module, momentum=0.9):
        self.momentum = momentum
        self.rms_ema = 0.0
        module.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        rms = output.detach().pow(2).mean().sqrt()
        self.rms_ema = self.momentum * self.rms_ema + (1 - self.momentum) * rms


model = Denoiser()
monitors = [ActivationMonitor(block) for block in model.blocks]
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
data_mean = torch.linspace(-1, 1, DIM)

for step in range(10):
    x0 = data_mean + 0.2 * torch.randn(BATCH, DIM)
    t = torch.randint(0, T_STEPS, (BATCH,))
    noise = torch.randn_like(x0)
    a = alphas_bar[t][:, None]
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    loss = F.mse_loss(model(x_t, t.float()), noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 3 == 0:
        rms = " ".join(f"{m.rms_ema.item():.3f}" for m in monitors)
        print(f"step {step} loss {loss.item():.4f} block rms {rms}")
