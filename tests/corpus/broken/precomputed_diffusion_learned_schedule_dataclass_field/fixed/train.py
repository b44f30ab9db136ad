"""Denoising diffusion on 2-D points with a learned noise schedule (VDM-style): the schedule
is a monotone function of the step index whose shape is trained together with the denoiser.
Sampling settings and the schedule table live in one DiffusionConfig dataclass."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STEPS, DATA_DIM, BATCH = 50, 2, 64


class LearnedSchedule(nn.Module):
    """alpha_bar[t] = sigmoid(-gamma[t]), gamma increasing from gamma_min to gamma_max."""

    def __init__(self, n_steps, gamma_min=-6.0, gamma_max=6.0):
        super().__init__()
        self.increments = nn.Parameter(torch.zeros(n_steps))
        self.gamma_min, self.gamma_max = gamma_min, gamma_max

    def forward(self):
        cum = torch.cumsum(F.softplus(self.increments), dim=0)
        gamma = self.gamma_min + (self.gamma_max - self.gamma_min) * cum / cum[-1]
        return torch.sigmoid(-gamma)


@dataclass
class DiffusionConfig:
    n_steps: int
    alpha_bar: torch.Tensor
    prior_weight: float = 0.1


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(N_STEPS, 16)
        self.net = nn.Sequential(nn.Linear(DATA_DIM + 16, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, DATA_DIM))

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, self.t_embed(t)], dim=-1))


def two_moons(n):
    angle = torch.rand(n) * torch.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(angle), 1 - torch.cos(angle))
    y = torch.where(upper, torch.sin(angle), 0.5 - torch.sin(angle))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


def train(steps=5):
    torch.manual_seed(0)
    schedule, denoiser = LearnedSchedule(N_STEPS), Denoiser()
    params = list(schedule.parameters()) + list(denoiser.parameters())
    optimizer = torch.optim.Adam(params, lr=2e-3)
    cfg = DiffusionConfig(n_steps=N_STEPS, alpha_bar=schedule())
    for step in range(steps):
        cfg.alpha_bar = schedule()
        x0 = two_moons(BATCH)
        t = torch.randint(0, cfg.n_steps, (BATCH,))
        ab = cfg.alpha_bar[t].unsqueeze(-1)
        eps = torch.randn_like(x0)
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * eps
        diffusion_loss = F.mse_loss(denoiser(x_t, t), eps)
        prior_loss = 0.5 * (cfg.alpha_bar[-1] * x0.pow(2).sum(dim=1)).mean()
        loss = diffusion_loss + cfg.prior_weight * prior_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} eps-mse {diffusion_loss.item():.4f} prior {prior_loss.item():.5f} "
              f"alpha_bar[T/2] {cfg.alpha_bar[N_STEPS // 2].item():.4f}")


if __name__ == "__main__":
    train()
