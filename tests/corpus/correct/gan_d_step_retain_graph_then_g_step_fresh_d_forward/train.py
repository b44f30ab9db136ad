"""GAN on 2-D ring data, discriminator updated first on the *non-detached* generator batch
with retain_graph=True, so the generator part of the graph survives and the generator step
can reuse the same fake batch through a fresh discriminator forward."""
import math

import torch
import torch.nn as nn

Z_DIM, BATCH = 4, 64


def real_batch(n):
    angle = 2 * math.pi * torch.rand(n, 1)
    return torch.cat([torch.cos(angle), torch.sin(angle)], dim=1) * 2 + 0.05 * torch.randn(n, 2)


def train(steps=6):
    G = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, 2))
    D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)
    for step in range(steps):
        fake = G(torch.randn(BATCH, Z_DIM))

        opt_d.zero_grad()
        d_loss = bce(D(real_batch(BATCH)), ones) + bce(D(fake), zeros)
        d_loss.backward(retain_graph=True)
        opt_d.step()

        opt_g.zero_grad()
        g_loss = bce(D(fake), ones)
        g_loss.backward()
        opt_g.step()
        radius = fake.detach().norm(dim=1).mean().item()
        print(f"step {step} d_loss {d_loss.item():.6f} g_loss {g_loss.item():.6f} radius {radius:.6f}")
    return G, D


if __name__ == "__main__":
    torch.manual_seed(0)
    G, D = train()
    print(f"checksum G {sum(p.sum().item() for p in G.parameters()):.6f} "
          f"D {sum(p.sum().item() for p in D.parameters()):.6f}")
