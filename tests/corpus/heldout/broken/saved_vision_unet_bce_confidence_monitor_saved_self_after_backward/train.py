"""Tiny U-Net-style binary segmentation of bright blobs on a noisy background."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from monitor import ConfidenceMonitor

SIZE, BATCH, STEPS = 16, 8, 6


class TinyUNet(nn.Module):
    def __init__(self, c=12):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, c, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(c, 2 * c, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * c, c, 2, stride=2)
        self.dec = nn.Sequential(nn.Conv2d(2 * c, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 1, 1))

    def forward(self, x):
        s1 = self.enc1(x)
        bottom = self.enc2(s1)
        return self.dec(torch.cat([self.up(bottom), s1], dim=1))


def blob_batch(gen):
    ys, xs = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    centers = torch.rand(BATCH, 2, 1, 1, generator=gen) * (SIZE - 6) + 3
    radius = torch.rand(BATCH, 1, 1, generator=gen) * 2.5 + 2.0
    masks = (((ys - centers[:, 0]) ** 2 + (xs - centers[:, 1]) ** 2) < radius ** 2).float()[:, None]
    images = masks * 0.8 + 0.35 * torch.randn(BATCH, 1, SIZE, SIZE, generator=gen)
    return images, masks


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    model = TinyUNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    monitor = ConfidenceMonitor()
    for step in range(STEPS):
        images, masks = blob_batch(gen)
        probs = torch.sigmoid(model(images))
        loss = F.binary_cross_entropy(probs, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats = monitor.update(loss)
        dice = (2 * (probs > 0.5).float().mul(masks).sum() / ((probs > 0.5).float().sum() + masks.sum())).item()
        print(f"step {step}  bce {loss.item():.4f}  dice {dice:.3f}  "
              f"mean p {stats['mean_prob']:.3f}  uncertain {stats['uncertain_frac']:.3f}")
    return model


if __name__ == "__main__":
    train()
