"""Tiny DDPM on a 2-D spiral: an MLP predicts the noise added at a random timestep. The
Trainer logs a lot from the step: loss.item(), the gradient norm returned by
clip_grad_norm_, per-timestep-bucket losses via .tolist(), and a smoothed loss built with
torch.tensor() over the Python history. None of it feeds back into training."""
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, N_BUCKETS = 50, 5


def spiral(n):
    t = torch.rand(n) * 3 * math.pi
    return torch.stack([t * torch.cos(t), t * torch.sin(t)], 1) / 10 + 0.02 * torch.randn(n, 2)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.time_emb = nn.Embedding(T_STEPS, hidden)
        self.inp = nn.Linear(2, hidden)
        self.net = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x_t, t):
        return self.net(self.inp(x_t) + self.time_emb(t))


@dataclass
class TrainLog:
    losses: list = field(default_factory=list)
    grad_norms: list = field(default_factory=list)
    buckets: list = field(default_factory=lambda: [[] for _ in range(N_BUCKETS)])


class Trainer:
    def __init__(self, model, lr=2e-3):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        betas = torch.linspace(1e-4, 0.05, T_STEPS)
        self.alpha_bar = torch.cumprod(1 - betas, dim=0)
        self.log = TrainLog()

    def step(self, x0):
        t = torch.randint(0, T_STEPS, (x0.size(0),))
        noise = torch.randn_like(x0)
        a = self.alpha_bar[t].unsqueeze(1)
        x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
        per_example = F.mse_loss(self.model(x_t, t), noise, reduction="none").mean(1)
        loss = per_example.mean()
        self.optimizer.zero_grad()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()

        self.log.losses.append(loss.item())
        self.log.grad_norms.append(grad_norm.item())
        for tt, l in zip((t * N_BUCKETS // T_STEPS).tolist(), per_example.tolist()):
            self.log.buckets[tt].append(l)
        return loss.item()

    def smoothed(self, window=3):
        return torch.tensor(self.log.losses[-window:]).mean().item()


torch.manual_seed(0)
trainer = Trainer(Denoiser())
data = spiral(256)
for epoch in range(2):
    for start in range(0, 256, 64):
        trainer.step(data[start:start + 64])
    bucket_means = [sum(b) / max(len(b), 1) for b in trainer.log.buckets]
    print(f"epoch {epoch} smoothed loss {trainer.smoothed():.6f} "
          f"max grad norm {max(trainer.log.grad_norms):.6f}")
    print("  loss by timestep bucket " + " ".join(f"{m:.4f}" for m in bucket_means))
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
