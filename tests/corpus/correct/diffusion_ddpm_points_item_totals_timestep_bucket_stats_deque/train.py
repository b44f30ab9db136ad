"""DDPM on a 2-D two-moons point cloud. Training statistics are kept every step: an epoch
total and a smoothed loss as Python floats, a deque of recent losses, and per-timestep-
bucket loss sums in tensors filled from the detached per-sample losses."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

T, N_BUCKETS, BATCH = 100, 4, 64


def two_moons(n, gen):
    t = torch.rand(n, generator=gen) * torch.pi
    upper = torch.rand(n, generator=gen) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2, generator=gen)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.time_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(2, hidden)
        self.mid = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 2)

    def forward(self, x, t):
        h = F.silu(self.inp(x) + self.time_embed(t))
        h = F.silu(self.mid(h))
        return self.out(h)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    betas = torch.linspace(1e-4, 0.05, T)
    alpha_bar = torch.cumprod(1 - betas, 0)
    model = Denoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    recent = deque(maxlen=3)
    smoothed = None
    bucket_sum = torch.zeros(N_BUCKETS)
    bucket_count = torch.zeros(N_BUCKETS)
    for epoch in range(2):
        epoch_total, n_seen = 0.0, 0
        for _ in range(4):
            x0 = two_moons(BATCH, gen)
            t = torch.randint(0, T, (BATCH,), generator=gen)
            noise = torch.randn(BATCH, 2, generator=gen)
            ab = alpha_bar[t].unsqueeze(1)
            xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
            per_sample = F.mse_loss(model(xt, t), noise, reduction="none").mean(1)
            loss = per_sample.mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            value = loss.item()
            epoch_total += value * BATCH
            n_seen += BATCH
            recent.append(value)
            smoothed = value if smoothed is None else 0.8 * smoothed + 0.2 * value
            bucket = t * N_BUCKETS // T
            bucket_sum.index_add_(0, bucket, per_sample.detach())
            bucket_count.index_add_(0, bucket, torch.ones(BATCH))
        print(f"epoch {epoch} mean {epoch_total / n_seen:.4f} smoothed {smoothed:.4f} "
              f"recent {[round(v, 4) for v in recent]}")
    per_bucket = (bucket_sum / bucket_count.clamp(min=1)).tolist()
    print("loss by timestep bucket", [round(v, 4) for v in per_bucket])
    checksum = sum(p.detach().double().abs().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
