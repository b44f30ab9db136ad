"""DDPM-style noise-prediction model on 2-D points (two interleaved arcs). main() is the short
smoke run used before a long job: ten steps, then a table of the loss per diffusion-timestep
bucket, built from the per-sample losses kept during the run."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, BATCH, N_BUCKETS = 50, 64, 5


def alpha_bars(num_steps, beta_start=1e-4, beta_end=0.05):
    betas = torch.linspace(beta_start, beta_end, num_steps)
    return torch.cumprod(1 - betas, dim=0)


def two_arcs(n):
    angle = math.pi * torch.rand(n)
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(angle), 1 - torch.cos(angle))
    y = torch.where(upper, torch.sin(angle), 0.5 - torch.sin(angle))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(2, hidden)
        self.net = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.net(self.inp(x) + self.t_embed(t))


def bucket_table(timestep_log):
    sums, counts = [0.0] * N_BUCKETS, [0] * N_BUCKETS
    for t, per_sample in timestep_log:
        bucket = t * N_BUCKETS // T
        for b in range(N_BUCKETS):
            mask = bucket == b
            sums[b] += per_sample[mask].sum().item()
            counts[b] += int(mask.sum())
    return [s / max(c, 1) for s, c in zip(sums, counts)]


def main(steps=10):
    model = Denoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    alpha_bar = alpha_bars(T)
    timestep_log = []
    for step in range(steps):
        x0 = two_arcs(BATCH)
        t = torch.randint(0, T, (BATCH,))
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None]
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        per_sample = F.mse_loss(model(xt, t), noise, reduction="none").mean(dim=1)
        loss = per_sample.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        timestep_log.append((t, per_sample.detach()))
        print(f"step {step} loss {loss.item():.4f}")
    for b, value in enumerate(bucket_table(timestep_log)):
        lo, hi = b * T // N_BUCKETS, (b + 1) * T // N_BUCKETS - 1
        print(f"t {lo:2d}-{hi:2d} mean loss {value:.4f}")
    return model


if __name__ == "__main__":
    main()
