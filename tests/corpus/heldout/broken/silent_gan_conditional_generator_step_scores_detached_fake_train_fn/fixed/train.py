"""Conditional GAN (projection discriminator) on three labelled 2-D clusters. The loop in
train() updates D on real and generated points, then updates G so that D scores its points
as real for their label."""
import torch
import torch.nn as nn
import torch.nn.functional as F

Z_DIM, N_CLASSES, BATCH = 6, 3, 96
CENTERS = torch.tensor([[0.0, 2.0], [-1.7, -1.0], [1.7, -1.0]])


def real_batch(n):
    y = torch.randint(0, N_CLASSES, (n,))
    return CENTERS[y] + 0.2 * torch.randn(n, 2), y


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_embed = nn.Embedding(N_CLASSES, 8)
        self.net = nn.Sequential(nn.Linear(Z_DIM + 8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                                 nn.Linear(64, 2))

    def forward(self, z, y):
        return self.net(torch.cat([z, self.label_embed(y)], dim=1))


class ProjectionDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2))
        self.out = nn.Linear(64, 1)
        self.class_embed = nn.Embedding(N_CLASSES, 64)

    def forward(self, x, y):
        h = self.body(x)
        return self.out(h).squeeze(1) + (self.class_embed(y) * h).sum(dim=1)


def train(steps=8):
    torch.manual_seed(0)
    netG, netD = Generator(), ProjectionDiscriminator()
    opt_g = torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.5, 0.999))
    for step in range(steps):
        real, y = real_batch(BATCH)
        fake_y = torch.randint(0, N_CLASSES, (BATCH,))
        fake = netG(torch.randn(BATCH, Z_DIM), fake_y)

        d_real = netD(real, y)
        d_fake = netD(fake.detach(), fake_y)
        d_loss = F.relu(1 - d_real).mean() + F.relu(1 + d_fake).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        g_scores = netD(fake, fake_y)
        g_loss = -g_scores.mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        dist = torch.cdist(fake, CENTERS)[torch.arange(BATCH), fake_y].mean()
        print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f} dist-to-center {dist.item():.3f}")
    return netG


if __name__ == "__main__":
    train()
