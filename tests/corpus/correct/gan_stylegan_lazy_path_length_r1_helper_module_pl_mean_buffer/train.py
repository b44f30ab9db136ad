"""Tiny StyleGAN-like generator (mapping net + modulated synthesis) on 8x8 ring images,
with lazy path-length regularisation for G, lazy R1 for D and an EMA copy of G."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from regularizers import PathLengthRegularizer, r1_penalty

Z_DIM, W_DIM, BATCH, STEPS, REG_EVERY = 8, 16, 8, 6, 2


class StyleGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.mapping = nn.Sequential(nn.Linear(Z_DIM, W_DIM), nn.LeakyReLU(0.2), nn.Linear(W_DIM, W_DIM))
        self.const = nn.Parameter(torch.randn(1, 32))
        self.style1 = nn.Linear(W_DIM, 32)
        self.fc1 = nn.Linear(32, 64)
        self.style2 = nn.Linear(W_DIM, 64)
        self.to_img = nn.Linear(64, 64)

    def synthesis(self, w):
        h = self.const.expand(w.shape[0], -1) * (1 + self.style1(w))
        h = F.leaky_relu(self.fc1(h), 0.2) * (1 + self.style2(w))
        return torch.tanh(self.to_img(h)).view(-1, 1, 8, 8)

    def forward(self, z, return_w=False):
        w = self.mapping(z)
        img = self.synthesis(w)
        return (img, w) if return_w else img


def ring_images(n):
    grid = torch.linspace(-1, 1, 8)
    yy, xx = torch.meshgrid(grid, grid, indexing="ij")
    radius = 0.4 + 0.3 * torch.rand(n, 1, 1)
    dist = (xx.pow(2) + yy.pow(2)).sqrt()
    return (torch.exp(-(dist - radius).pow(2) / 0.05) * 2 - 1).unsqueeze(1)


def train():
    torch.manual_seed(5)
    G = StyleGenerator()
    D = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.LeakyReLU(0.2),
                      nn.Conv2d(8, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                      nn.Flatten(), nn.Linear(16 * 16, 1))
    G_ema = copy.deepcopy(G).requires_grad_(False)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.0, 0.99))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.0, 0.99))
    pl_reg = PathLengthRegularizer()

    for step in range(STEPS):
        lazy = step % REG_EVERY == 0
        real = ring_images(BATCH)

        # discriminator
        G.requires_grad_(False)
        fake = G(torch.randn(BATCH, Z_DIM))
        if lazy:
            real_logits, r1 = r1_penalty(D, real)
        else:
            real_logits, r1 = D(real), torch.zeros(())
        d_loss = F.softplus(D(fake)).mean() + F.softplus(-real_logits).mean() + 5.0 * REG_EVERY * r1
        opt_d.zero_grad(set_to_none=True)
        d_loss.backward()
        opt_d.step()
        G.requires_grad_(True)

        # generator
        D.requires_grad_(False)
        fake, w = G(torch.randn(BATCH, Z_DIM), return_w=True)
        g_loss = F.softplus(-D(fake)).mean()
        pl_len = 0.0
        if lazy:
            pl_pen, pl_len = pl_reg(fake, w)
            g_loss = g_loss + 2.0 * REG_EVERY * pl_pen
        opt_g.zero_grad(set_to_none=True)
        g_loss.backward()
        opt_g.step()
        D.requires_grad_(True)

        with torch.no_grad():
            for p_ema, p in zip(G_ema.parameters(), G.parameters()):
                p_ema.lerp_(p, 0.1)
        print(f"step {step} d {d_loss.item():.4f} g {g_loss.item():.4f} r1 {r1.item():.4f} "
              f"pl_len {pl_len:.4f} pl_mean {pl_reg.pl_mean.item():.5f}")
    return G, G_ema, D


if __name__ == "__main__":
    G, G_ema, D = train()
    with torch.no_grad():
        sample = G_ema(torch.randn(4, Z_DIM))
    print(f"ema sample mean {sample.mean().item():.4f}")
    print(f"checksum {sum(p.sum().item() for m in (G, D) for p in m.parameters()):.4f}")
