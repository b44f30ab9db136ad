"""Residual image denoiser (DnCNN-flavoured) on synthetic piecewise-smooth images.

The stem is conv + ReLU; the body is a stack of pre-activation residual blocks
(ReLU -> conv -> ReLU -> conv, plus identity), as in the VQ-VAE / EDSR style ResBlocks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, BATCH, STEPS, WIDTH, NOISE = 16, 8, 6, 24, 0.2


class PreActResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.branch = nn.Sequential(
            nn.ReLU(inplace=True),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channels, channels, 3, padding=1),
        )

    def forward(self, x):
        return x + 0.5 * self.branch(x)


class Denoiser(nn.Module):
    def __init__(self, n_blocks=2):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, WIDTH, 3, padding=1), nn.ReLU())
        self.blocks = nn.Sequential(*[PreActResBlock(WIDTH) for _ in range(n_blocks)])
        self.tail = nn.Conv2d(WIDTH, 1, 3, padding=1)

    def forward(self, noisy):
        return noisy - self.tail(self.blocks(self.stem(noisy)))   # predicts the noise


def clean_images(n):
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, SIZE), torch.linspace(-1, 1, SIZE), indexing="ij")
    centers = torch.rand(n, 2, 1, 1) * 1.2 - 0.6
    radius = torch.rand(n, 1, 1) * 0.4 + 0.2
    disc = (((ys - centers[:, 0]) ** 2 + (xs - centers[:, 1]) ** 2) < radius ** 2).float()
    ramp = 0.3 * (xs + 1) * torch.rand(n, 1, 1)
    return (disc * 0.7 + ramp)[:, None]


model = Denoiser()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(STEPS):
    clean = clean_images(BATCH)
    noisy = clean + NOISE * torch.randn_like(clean)
    denoised = model(noisy)
    loss = F.mse_loss(denoised, clean)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    psnr = -10 * torch.log10(loss.detach())
    print(f"step {step}  mse {loss.item():.5f}  psnr {psnr.item():.2f} dB")
