"""WGAN with weight clipping that learns to generate short noisy sine waves."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
SIG_LEN, Z_DIM, BATCH, N_ITERS, CLIP = 16, 4, 16, 4, 0.05

G = nn.Sequential(nn.Linear(Z_DIM, 32), nn.LeakyReLU(0.2), nn.Linear(32, SIG_LEN), nn.Tanh())
D = nn.Sequential(nn.Linear(SIG_LEN, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1, bias=False))
opt_G = torch.optim.RMSprop(G.parameters(), lr=5e-4)
opt_D = torch.optim.RMSprop(D.parameters(), lr=5e-4)


def real_batch(n):
    t = torch.linspace(0, 2 * math.pi, SIG_LEN)
    phase = torch.rand(n, 1) * 2 * math.pi
    return torch.sin(t + phase) * 0.8 + 0.05 * torch.randn(n, SIG_LEN)


for it in range(N_ITERS):
    real = real_batch(BATCH)
    z = torch.randn(BATCH, Z_DIM)
    fake = G(z)

    # critic update
    opt_D.zero_grad()
    loss_D = D(fake).mean() - D(real).mean()
    loss_D.backward()
    opt_D.step()
    for p in D.parameters():
        p.data.clamp_(-CLIP, CLIP)

    # generator update
    opt_G.zero_grad()
    loss_G = -D(fake).mean()
    loss_G.backward()
    opt_G.step()
    print(f"iter {it}: W-dist {-loss_D.item():.4f}  G loss {loss_G.item():.4f}")
