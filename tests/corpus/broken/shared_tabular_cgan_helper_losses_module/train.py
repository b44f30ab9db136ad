"""Conditional GAN for synthetic tabular rows (one categorical condition, 6 numeric columns)."""
import torch
import torch.nn as nn

from losses import discriminator_loss, generator_loss

N_COLS, N_CLASSES, Z_DIM, BATCH = 6, 3, 8, 32


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond = nn.Embedding(N_CLASSES, 4)
        self.net = nn.Sequential(nn.Linear(Z_DIM + 4, 32), nn.ReLU(), nn.Linear(32, N_COLS))

    def forward(self, z, c):
        return self.net(torch.cat([z, self.cond(c)], 1))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond = nn.Embedding(N_CLASSES, 4)
        self.net = nn.Sequential(nn.Linear(N_COLS + 4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x, c):
        return self.net(torch.cat([x, self.cond(c)], 1))


def sample_real(n):
    c = torch.randint(0, N_CLASSES, (n,))
    centers = torch.tensor([[0.0] * N_COLS, [1.0, -1.0] * 3, [2.0] * N_COLS])
    return centers[c] + 0.3 * torch.randn(n, N_COLS), c


def main(steps=4):
    torch.manual_seed(0)
    G, D = Generator(), Discriminator()
    opt_G = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
    opt_D = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
    for step in range(steps):
        real, cond = sample_real(BATCH)
        fake = G(torch.randn(BATCH, Z_DIM), cond)

        opt_D.zero_grad()
        d_loss = discriminator_loss(D, real, fake, cond)
        d_loss.backward()
        opt_D.step()

        opt_G.zero_grad()
        g_loss = generator_loss(D, fake, cond)
        g_loss.backward()
        opt_G.step()
        print(f"step {step}: d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")


if __name__ == "__main__":
    main()
