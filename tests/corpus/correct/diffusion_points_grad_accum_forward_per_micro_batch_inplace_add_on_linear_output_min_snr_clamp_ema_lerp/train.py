"""2-D point DDPM with gradient accumulation done per micro-batch (each micro-batch has its
own forward and backward), min-SNR loss weights clamped in place, an in-place time-embedding
add on a Linear output, and an EMA copy of the denoiser updated with lerp_ after each step."""
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
STEPS_T, ACCUM, BATCH = 100, 4, 128


def two_moons(n):
    t = math.pi * torch.rand(n)
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, t.cos(), 1.0 - t.cos())
    y = torch.where(upper, t.sin(), 0.5 - t.sin())
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


class Denoiser(nn.Module):
    def __init__(self, hidden=64, temb=16):
        super().__init__()
        self.temb = temb
        self.inp = nn.Linear(2, hidden)
        self.time = nn.Linear(temb, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def embed(self, t):
        half = self.temb // 2
        freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
        ang = t.float()[:, None] * freqs[None, :]
        return torch.cat([ang.sin(), ang.cos()], dim=1)

    def forward(self, x_t, t):
        h = self.inp(x_t)
        h += self.time(self.embed(t))  # addmm does not keep its output: safe to add in place
        return self.body(h)


betas = torch.linspace(1e-4, 2e-2, STEPS_T)
alpha_bar = torch.cumprod(1.0 - betas, dim=0)


def micro_loss(model, x0):
    t = torch.randint(0, STEPS_T, (x0.size(0),))
    noise = torch.randn_like(x0)
    ab = alpha_bar[t][:, None]
    x_t = ab.sqrt() * x0
    x_t.add_((1.0 - ab).sqrt() * noise)  # data and noise only, no graph here
    snr = ab.squeeze(1) / (1.0 - ab.squeeze(1))
    weight = snr.clamp_(max=5.0) / snr  # min-SNR-5 weighting for epsilon prediction, in place on a no-grad tensor
    per_sample = ((model(x_t, t) - noise) ** 2).mean(dim=1)
    return (weight * per_sample).mean()


model = Denoiser()
ema = copy.deepcopy(model).requires_grad_(False)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
data = two_moons(512)

for epoch in range(2):
    running = 0.0
    for batch in data[torch.randperm(data.size(0))].split(BATCH):
        optimizer.zero_grad()
        for micro in batch.chunk(ACCUM):
            loss = micro_loss(model, micro) / ACCUM
            loss.backward()
            running += loss.item()
        optimizer.step()
        with torch.no_grad():
            for p_ema, p in zip(ema.parameters(), model.parameters()):
                p_ema.lerp_(p, 0.1)
    print(f"epoch {epoch} loss {running / 4:.6f}")

with torch.no_grad():
    x = torch.randn(8, 2)
    timesteps = list(range(STEPS_T - 1, -1, -10))
    for i, step in enumerate(timesteps):  # deterministic DDIM with the EMA weights
        eps = ema(x, torch.full((8,), step))
        x0_hat = (x - (1 - alpha_bar[step]).sqrt() * eps) / alpha_bar[step].sqrt()
        x0_hat.clamp_(-3.0, 3.0)
        ab_prev = alpha_bar[timesteps[i + 1]] if i + 1 < len(timesteps) else torch.tensor(1.0)
        x = ab_prev.sqrt() * x0_hat + (1 - ab_prev).sqrt() * eps
print(f"sample mean {x.mean().item():.6f}")
print(f"checksum model {sum(p.sum().item() for p in model.parameters()):.6f}")
print(f"checksum ema {sum(p.sum().item() for p in ema.parameters()):.6f}")
