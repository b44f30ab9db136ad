"""DDPM on 2-D points with Min-SNR-gamma loss weighting (Hang et al. 2023). Per-sample losses
are weighted by min(SNR(t), gamma) / SNR(t); samples whose loss is not finite are skipped
(a guard added after a NaN blow-up in a larger run)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T, BATCH, GAMMA = 100, 64, 5.0


def two_moons(n):
    theta = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(theta), 1 - torch.cos(theta))
    y = torch.where(upper, torch.sin(theta), 0.5 - torch.sin(theta))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


class EpsModel(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_proj = nn.Linear(16, hidden)
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t):
        freqs = torch.exp(-math.log(1000) * torch.arange(8) / 8)
        ang = t.float().unsqueeze(1) * freqs
        return self.out(self.net(x) + self.t_proj(torch.cat([ang.sin(), ang.cos()], dim=1)))


class MinSNRTrainer:
    def __init__(self):
        self.model = EpsModel()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-3)
        self.alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T), dim=0)
        self.snr = self.alpha_bar / (1 - self.alpha_bar)

    def compute_loss(self, x0):
        t = torch.randint(0, T, (x0.shape[0],))
        noise = torch.randn_like(x0)
        ab = self.alpha_bar[t].unsqueeze(1)
        eps_hat = self.model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t)
        per_sample = F.mse_loss(eps_hat, noise, reduction="none").mean(dim=1)
        weights = torch.clamp(self.snr[t], max=GAMMA) / self.snr[t]
        finite = torch.isfinite(per_sample)
        loss = (weights * per_sample)[finite].mean()
        return loss, int(finite.sum())

    def fit(self, steps):
        for step in range(steps):
            loss, kept = self.compute_loss(two_moons(BATCH))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"step {step} min-snr loss {loss.item():.4f} ({kept}/{BATCH} samples)")


torch.manual_seed(0)
trainer = MinSNRTrainer()
trainer.fit(steps=7)
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.4f}")
