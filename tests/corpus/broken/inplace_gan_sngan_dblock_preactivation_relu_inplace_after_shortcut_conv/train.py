"""SNGAN with hinge loss on synthetic 16x16 'blob' images, trained in a train() function."""
import torch
import torch.nn.functional as F

from models import Discriminator, Generator

torch.manual_seed(0)
NZ = 16


def blob_images(n, size=16):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    centres = torch.randint(4, size - 4, (n, 2, 1, 1)).float()
    d2 = (yy - centres[:, 0]) ** 2 + (xx - centres[:, 1]) ** 2
    return (torch.exp(-d2 / 8.0) * 2 - 1).unsqueeze(1)


def train(iterations=4, batch=16):
    G, D = Generator(NZ), Discriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.0, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
    for it in range(iterations):
        real = blob_images(batch)
        fake = G(torch.randn(batch, NZ))

        d_loss = F.relu(1.0 - D(real)).mean() + F.relu(1.0 + D(fake.detach())).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        g_loss = -D(fake).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"iter {it} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
    return G, D


train()
