"""Vanilla GAN on a 1-D mixture of three Gaussians. Following the usual speed tricks,
the fake batch is generated without autograd for the discriminator update, and D's
parameters are frozen while the generator is updated."""
import torch
import torch.nn as nn
import torch.nn.functional as F

NZ, BATCH = 4, 64
MODES = torch.tensor([-2.0, 0.5, 3.0])


def sample_real(n):
    idx = torch.randint(0, len(MODES), (n,))
    return (MODES[idx] + 0.2 * torch.randn(n)).unsqueeze(1)


def set_requires_grad(net, flag):
    for p in net.parameters():
        p.requires_grad_(flag)


def build():
    G = nn.Sequential(nn.Linear(NZ, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32),
                      nn.LeakyReLU(0.2), nn.Linear(32, 1))
    D = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    return G, D


def train(steps=6):
    torch.manual_seed(0)
    G, D = build()
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.999))
    ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)
    log = []
    for step in range(steps):
        real = sample_real(BATCH)
        z = torch.randn(BATCH, NZ)
        fake = G(z)

        # discriminator update
        set_requires_grad(D, True)
        d_loss = (F.binary_cross_entropy_with_logits(D(real), ones)
                  + F.binary_cross_entropy_with_logits(D(fake.detach()), zeros))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        # generator update: D frozen, same fake batch
        set_requires_grad(D, False)
        g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        log.append((d_loss.item(), g_loss.item(), fake.mean().item()))
    return log


if __name__ == "__main__":
    for step, (d, g, m) in enumerate(train()):
        print(f"step {step} D {d:.4f} G {g:.4f} fake mean {m:+.3f}")
