"""SimCLR on synthetic sensor windows (two random augmentations per window, NT-Xent loss).
Per epoch it reports the alignment and uniformity of the embeddings (Wang & Isola), collected
in an EpochStats dataclass."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CHANNELS, LENGTH, EMB, BATCH, TAU = 3, 32, 16, 32, 0.2


@dataclass
class EpochStats:
    alignment: torch.Tensor | float = 0.0
    uniformity: float = 0.0
    batches: int = 0

    def summary(self):
        return (f"align {float(self.alignment) / self.batches:.4f}  "
                f"unif {self.uniformity / self.batches:.4f}")


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(CHANNELS, 16, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(16, 16, 5, padding=2), nn.ReLU())
        self.proj = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, EMB))

    def forward(self, x):
        return F.normalize(self.proj(self.conv(x).mean(-1)), dim=1)


def augment(x):
    scale = 1 + 0.2 * torch.randn(x.shape[0], CHANNELS, 1)
    shift = torch.randint(-3, 4, (1,)).item()
    return torch.roll(x * scale, shift, dims=-1) + 0.05 * torch.randn_like(x)


def nt_xent(z1, z2):
    z = torch.cat([z1, z2])
    sim = z @ z.t() / TAU
    sim.fill_diagonal_(float("-inf"))
    n = z1.shape[0]
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(sim, targets)


def sensor_batch():
    t = torch.linspace(0, 6.28, LENGTH)
    freq = torch.randint(1, 4, (BATCH, CHANNELS, 1)).float()
    return torch.sin(freq * t) + 0.1 * torch.randn(BATCH, CHANNELS, LENGTH)


encoder = Encoder()
optimizer = torch.optim.Adam(encoder.parameters(), lr=3e-3)
for epoch in range(2):
    stats = EpochStats()
    for _ in range(9):
        x = sensor_batch()
        z1, z2 = encoder(augment(x)), encoder(augment(x))
        loss = nt_xent(z1, z2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats.alignment += (z1 - z2).pow(2).sum(1).mean().item()
        stats.uniformity += torch.pdist(z1).pow(2).mul(-2).exp().mean().log().item()
        stats.batches += 1
    print(f"epoch {epoch}  last loss {loss.item():.4f}  {stats.summary()}")
