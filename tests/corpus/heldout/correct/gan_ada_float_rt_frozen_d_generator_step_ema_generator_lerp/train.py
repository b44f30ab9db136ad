"""Small-data GAN on 40 "heartbeat" traces with adaptive discriminator augmentation (ADA):
the overfitting heuristic r_t is tracked as a float EMA of sign(D(real)); the generator
step freezes D with requires_grad_(False); an EMA copy of the generator is kept for
evaluation and updated in place under no_grad."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LENGTH, Z_DIM, BATCH, STEPS = 32, 8, 16, 8


def heartbeat_dataset(n=40):
    t = torch.linspace(-1, 1, LENGTH)
    width = 0.05 + 0.05 * torch.rand(n, 1)
    shift = 0.2 * (torch.rand(n, 1) - 0.5)
    return torch.exp(-((t - shift) / width) ** 2) - 0.3 * torch.exp(-((t - shift - 0.3) / 0.15) ** 2)


class ADA:
    def __init__(self, target=0.6, ema=0.9, speed=0.05):
        self.target, self.ema, self.speed = target, ema, speed
        self.p, self.rt = 0.0, 0.0

    def update(self, real_logits):
        self.rt = self.ema * self.rt + (1 - self.ema) * real_logits.sign().mean().item()
        self.p = min(max(self.p + self.speed * (1.0 if self.rt > self.target else -1.0), 0.0), 1.0)

    def __call__(self, x):
        flip = (torch.rand(x.shape[0], 1) < self.p).float()
        return x * (1 - 2 * flip)


data = heartbeat_dataset()
G = nn.Sequential(nn.Linear(Z_DIM, 64), nn.LeakyReLU(0.2), nn.Linear(64, LENGTH))
D = nn.Sequential(nn.Linear(LENGTH, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
G_ema = copy.deepcopy(G).requires_grad_(False)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.99))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.99))
ada = ADA()
fixed_z = torch.randn(4, Z_DIM)

for step in range(STEPS):
    real = data[torch.randint(0, len(data), (BATCH,))]
    fake = G(torch.randn(BATCH, Z_DIM))

    D.requires_grad_(True)
    real_logits = D(ada(real))
    d_loss = F.softplus(-real_logits).mean() + F.softplus(D(ada(fake.detach()))).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    ada.update(real_logits)

    D.requires_grad_(False)
    g_loss = F.softplus(-D(ada(fake))).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

    with torch.no_grad():
        for p_ema, p in zip(G_ema.parameters(), G.parameters()):
            p_ema.lerp_(p, 0.1)
        preview = G_ema(fixed_z).abs().mean().item()
    print(f"step {step} d {d_loss.item():.4f} g {g_loss.item():.4f} p {ada.p:.2f} rt {ada.rt:+.3f} "
          f"ema preview {preview:.4f}")
print(f"checksum G {sum(p.sum().item() for p in G.parameters()):.4f} "
      f"G_ema {sum(p.sum().item() for p in G_ema.parameters()):.4f}")
