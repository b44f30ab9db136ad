"""Small convolutional GAN on 8x8 blobs with an R1-regularized discriminator."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from regularizers import r1_penalty

Z_DIM, BATCH = 8, 8


class Trainer:
    def __init__(self, r1_gamma=10.0):
        self.G = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Unflatten(1, (1, 8, 8)),
                               nn.Conv2d(1, 1, 3, padding=1), nn.Tanh())
        self.D = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                               nn.Flatten(), nn.Linear(8 * 4 * 4, 1))
        self.opt_G = torch.optim.Adam(self.G.parameters(), lr=2e-3, betas=(0.0, 0.99))
        self.opt_D = torch.optim.Adam(self.D.parameters(), lr=2e-3, betas=(0.0, 0.99))
        self.r1_gamma = r1_gamma

    def d_step(self, real):
        real = real.requires_grad_(True)
        with torch.no_grad():
            fake = self.G(torch.randn(real.size(0), Z_DIM))
        d_real = self.D(real)
        d_fake = self.D(fake)
        r1 = r1_penalty(d_real, real)
        d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean() + 0.5 * self.r1_gamma * r1
        self.opt_D.zero_grad()
        d_loss.backward()
        self.opt_D.step()
        return d_loss.item(), r1.item()

    def g_step(self):
        fake = self.G(torch.randn(BATCH, Z_DIM))
        g_loss = F.softplus(-self.D(fake)).mean()
        self.opt_G.zero_grad()
        g_loss.backward()
        self.opt_G.step()
        return g_loss.item()


def blobs(n):
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    cy, cx = torch.randint(2, 6, (2, n, 1, 1)).float()
    return (torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 4.0) * 2 - 1).unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer()
    for it in range(4):
        d_loss, r1 = trainer.d_step(blobs(BATCH))
        g_loss = trainer.g_step()
        print(f"iter {it}: D {d_loss:.4f} (R1 {r1:.4f}) G {g_loss:.4f}")
