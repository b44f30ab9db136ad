"""DDPM on a 2-D ring-of-Gaussians point cloud: an MLP denoiser predicts the noise from the
noisy point and a sinusoidal timestep embedding. An EMA copy of the denoiser is kept for
sampling. build_state() sets up everything the loop needs in a TrainState dataclass."""
import copy
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, EMB, BATCH, EMA_DECAY = 50, 16, 128, 0.99


def timestep_embedding(t, dim=EMB):
    freqs = torch.exp(-math.log(1000.0) * torch.arange(dim // 2) / (dim // 2))
    angles = t.float()[:, None] * freqs[None]
    return torch.cat([angles.sin(), angles.cos()], dim=1)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_mlp = nn.Sequential(nn.Linear(EMB, 32), nn.SiLU())
        self.net = nn.Sequential(nn.Linear(2 + 32, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(),
                                 nn.Linear(64, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.time_mlp(timestep_embedding(t))], dim=1))


@dataclass
class TrainState:
    denoiser: nn.Module
    ema: nn.Module
    optimizer: torch.optim.Optimizer
    alpha_bar: torch.Tensor
    step: int = 0


def build_state(lr=2e-3):
    denoiser = Denoiser()
    ema = copy.deepcopy(denoiser).eval()
    optimizer = torch.optim.AdamW(denoiser.parameters(), lr=lr, weight_decay=1e-4)
    betas = torch.linspace(1e-4, 0.05, T_STEPS)
    return TrainState(denoiser, ema, optimizer, torch.cumprod(1 - betas, dim=0))


def ring_points(n):
    angle = 2 * math.pi * torch.randint(0, 8, (n,)) / 8
    centers = torch.stack([angle.cos(), angle.sin()], dim=1) * 2.0
    return centers + 0.1 * torch.randn(n, 2)


@torch.no_grad()
def update_ema(state):
    for p_ema, p in zip(state.ema.parameters(), state.denoiser.parameters()):
        p_ema.lerp_(p, 1 - EMA_DECAY)


def train_step(state, x0):
    t = torch.randint(0, T_STEPS, (x0.shape[0],))
    noise = torch.randn_like(x0)
    a = state.alpha_bar[t][:, None]
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    loss = F.mse_loss(state.denoiser(x_t, t), noise)
    state.optimizer.zero_grad()
    loss.backward()
    state.optimizer.step()
    update_ema(state)
    state.step += 1
    return loss.item()


def main():
    torch.manual_seed(0)
    state = build_state()
    for epoch in range(2):
        for _ in range(4):
            loss = train_step(state, ring_points(BATCH))
        print(f"epoch {epoch} step {state.step} loss {loss:.4f}")
    print(f"ema checksum {sum(p.sum().item() for p in state.ema.parameters()):.4f}")


if __name__ == "__main__":
    main()
