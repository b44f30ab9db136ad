"""Patch GAN on 8x8 single-channel "texture" patches cut from one synthetic image (SinGAN
spirit: many patches of one image). The discriminator tends to win early, so the generator
gets G_STEPS updates per discriminator update."""
import torch
import torch.nn as nn
import torch.nn.functional as F

Z_DIM, PATCH, BATCH, G_STEPS = 16, 8, 32, 2


def texture_image(size=48):
    xs = torch.linspace(0, 12.0, size)
    img = torch.sin(xs[:, None]) * torch.cos(0.5 * xs[None, :]) + 0.3 * torch.sin(2.5 * xs[None, :])
    return img / img.abs().max()


def random_patches(img, n):
    rows = torch.randint(0, img.shape[0] - PATCH, (n,))
    cols = torch.randint(0, img.shape[1] - PATCH, (n,))
    return torch.stack([img[r:r + PATCH, c:c + PATCH] for r, c in zip(rows, cols)]).unsqueeze(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(Z_DIM, 32 * 2 * 2)
        self.up = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.ConvTranspose2d(16, 1, 4, stride=2, padding=1), nn.Tanh())

    def forward(self, z):
        return self.up(self.fc(z).view(-1, 32, 2, 2))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(32 * 2 * 2, 1))

    def forward(self, x):
        return self.net(x)


def train(steps=5):
    torch.manual_seed(0)
    image = texture_image()
    netG, netD = Generator(), Critic()
    opt_g = torch.optim.Adam(netG.parameters(), lr=5e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(netD.parameters(), lr=5e-4, betas=(0.5, 0.999))
    for step in range(steps):
        real = random_patches(image, BATCH)
        fake = netG(torch.randn(BATCH, Z_DIM))
        d_real, d_fake = netD(real), netD(fake.detach())
        d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        g_loss = F.softplus(-netD(fake)).mean()
        for _ in range(G_STEPS):
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
        print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
    return netG


if __name__ == "__main__":
    train()
