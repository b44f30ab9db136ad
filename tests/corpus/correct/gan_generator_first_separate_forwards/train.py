"""A GAN on 1-D data trained generator-first: the G step runs its own forward through G
and D; the D step then draws a fresh batch from G under no_grad and runs separate
forwards for the real and fake terms. No graph is shared between the two losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(18)
BATCH, LATENT = 16, 3

G = nn.Sequential(nn.Linear(LATENT, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
D = nn.Sequential(nn.Linear(1, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_G = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_D = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)


def generator_step():
    opt_G.zero_grad()
    fake = G(torch.randn(BATCH, LATENT))
    loss = F.binary_cross_entropy_with_logits(D(fake), ones)
    loss.backward()
    opt_G.step()
    return loss.item()


def discriminator_step(real):
    opt_D.zero_grad()
    with torch.no_grad():
        fake = G(torch.randn(BATCH, LATENT))
    loss_real = F.binary_cross_entropy_with_logits(D(real), ones)
    loss_fake = F.binary_cross_entropy_with_logits(D(fake), zeros)
    loss = (loss_real + loss_fake) / 2
    loss.backward()
    opt_D.step()
    return loss.item()


for it in range(6):
    real = 2.0 + 0.5 * torch.randn(BATCH, 1)
    g_loss = generator_step()
    d_loss = discriminator_step(real)
    print(f"iter {it} G {g_loss:.6f} D {d_loss:.6f}")
with torch.no_grad():
    print(f"sample mean {G(torch.randn(256, LATENT)).mean().item():.6f}")
print(f"checksum G {sum(p.sum().item() for p in G.parameters()):.6f}")
print(f"checksum D {sum(p.sum().item() for p in D.parameters()):.6f}")
