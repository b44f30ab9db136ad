"""Non-saturating GAN on short noisy sine bursts with the generator and critic from
networks.py; the critic step sees detached fakes, the generator step backpropagates
through the critic."""
import math

import torch
import torch.nn.functional as F

from networks import Critic, Generator

torch.manual_seed(0)
Z_DIM, LENGTH, BATCH = 16, 32, 32


def real_batch(n):
    t = torch.linspace(0, 1, LENGTH)
    freq = 2 + 3 * torch.rand(n, 1)
    return torch.sin(2 * math.pi * freq * t) * torch.exp(-3 * t) + 0.05 * torch.randn(n, LENGTH)


G, D = Generator(Z_DIM, 16, LENGTH), Critic(LENGTH)
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.0, 0.99))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.0, 0.99))
for step in range(6):
    real = real_batch(BATCH)
    fake = G(torch.randn(BATCH, Z_DIM))
    d_loss = F.softplus(D(fake.detach())).mean() + F.softplus(-D(real)).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_loss = F.softplus(-D(G(torch.randn(BATCH, Z_DIM)))).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
