"""DDPM with self-conditioning (Chen et al., "Analog Bits"): half of the time the model
first predicts x0 without conditioning, under no_grad, and that estimate (detached) is fed
back as an extra input for the prediction that is trained. An EMA copy of the model is
updated in place after every optimizer step and used for a short evaluation."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, BATCH, STEPS = 60, 64, 7
alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.06, T), dim=0)


def ring(n):
    theta = torch.rand(n) * 2 * math.pi
    return torch.stack([theta.cos(), theta.sin()], dim=1) + 0.05 * torch.randn(n, 2)


class SelfCondDenoiser(nn.Module):
    """Predicts x0 from (x_t, previous x0 estimate, t)."""

    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(4, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x_t, x0_prev, t):
        return self.body(self.inp(torch.cat([x_t, x0_prev], dim=1)) + self.t_embed(t))


model = SelfCondDenoiser()
ema = copy.deepcopy(model).requires_grad_(False)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

for step in range(STEPS):
    x0 = ring(BATCH)
    t = torch.randint(0, T, (BATCH,))
    ab = alpha_bar[t].unsqueeze(1)
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn_like(x0)
    x0_prev = torch.zeros_like(x_t)
    if step % 2 == 1:
        with torch.no_grad():
            x0_prev = model(x_t, x0_prev, t)
        x0_prev = x0_prev.detach()
    x0_hat = model(x_t, x0_prev, t)
    loss = F.mse_loss(x0_hat, x0)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for p_ema, p in zip(ema.parameters(), model.parameters()):
            p_ema.lerp_(p, 0.05)
    print(f"step {step} self-cond {step % 2 == 1} loss {loss.item():.4f}")

with torch.no_grad():
    x0 = ring(BATCH)
    t = torch.full((BATCH,), T // 2)
    ab = alpha_bar[t].unsqueeze(1)
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn_like(x0)
    first = ema(x_t, torch.zeros_like(x_t), t)
    second = ema(x_t, first, t)
    print(f"ema eval mse {F.mse_loss(first, x0).item():.4f} -> {F.mse_loss(second, x0).item():.4f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
