"""Train a small DDPM denoiser on a 2-D Gaussian mixture, with loss-aware timestep sampling."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from diffusion_utils import TimestepLossTracker, linear_schedule

torch.manual_seed(0)
N_STEPS, BATCH = 100, 64


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.time_emb = nn.Embedding(N_STEPS, 16)
        self.net = nn.Sequential(nn.Linear(2 + 16, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, self.time_emb(t)], dim=1))


def data_batch(n):
    centers = torch.tensor([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.0]])
    return centers[torch.randint(0, 3, (n,))] + 0.2 * torch.randn(n, 2)


alpha_bar = linear_schedule(N_STEPS)
model = Denoiser()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
tracker = TimestepLossTracker(N_STEPS)

for step in range(12):
    x0 = data_batch(BATCH)
    t = tracker.sample(BATCH)
    noise = torch.randn_like(x0)
    a = alpha_bar[t].unsqueeze(1)
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    per_sample = F.mse_loss(model(x_t, t), noise, reduction="none").mean(dim=1)
    loss = per_sample.mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    tracker.update(t, per_sample)
    print(f"step {step} loss {loss.item():.4f}")
print("bucket loss EMA", " ".join(f"{v:.3f}" for v in tracker.ema.tolist()))
