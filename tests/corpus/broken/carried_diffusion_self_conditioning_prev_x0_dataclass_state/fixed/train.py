"""Self-conditioned DDPM on 2-D point clouds (two-moons style data).

The denoiser predicts x0 and receives a self-conditioning input: its own previous x0
estimate, as at sampling time. The training state (step count, last estimate, EMA of the
loss) is kept in a small dataclass so it can be checkpointed with the model.
"""
import math
from dataclasses import dataclass, field
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, BATCH, HIDDEN = 100, 64, 64


def moons(n):
    theta = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(theta), 1 - torch.cos(theta))
    y = torch.where(upper, torch.sin(theta), 0.5 - torch.sin(theta))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


class SelfCondDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_embed = nn.Embedding(T_STEPS, 16)
        self.net = nn.Sequential(nn.Linear(2 + 2 + 16, HIDDEN), nn.SiLU(),
                                 nn.Linear(HIDDEN, HIDDEN), nn.SiLU(), nn.Linear(HIDDEN, 2))

    def forward(self, x_t, t, x0_cond):
        return self.net(torch.cat([x_t, x0_cond, self.time_embed(t)], dim=1))


@dataclass
class TrainState:
    step: int = 0
    x0_prev: Optional[torch.Tensor] = None
    loss_ema: float = 0.0
    log: list = field(default_factory=list)


def train(num_steps=6):
    torch.manual_seed(0)
    betas = torch.linspace(1e-4, 0.02, T_STEPS)
    alpha_bar = torch.cumprod(1 - betas, dim=0)
    model = SelfCondDenoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    state = TrainState()

    for _ in range(num_steps):
        x0 = moons(BATCH)
        t = torch.randint(0, T_STEPS, (BATCH,))
        noise = torch.randn_like(x0)
        ab = alpha_bar[t].unsqueeze(1)
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise

        cond = state.x0_prev if state.x0_prev is not None else torch.zeros_like(x0)
        x0_pred = model(x_t, t, cond)
        loss = F.mse_loss(x0_pred, x0)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        state.x0_prev = x0_pred.detach()
        state.step += 1
        state.loss_ema = 0.9 * state.loss_ema + 0.1 * loss.item()
        state.log.append(round(loss.item(), 4))
        print(f"step {state.step} loss {loss.item():.4f} ema {state.loss_ema:.4f}")
    return state


if __name__ == "__main__":
    final = train()
    print("losses", final.log)
