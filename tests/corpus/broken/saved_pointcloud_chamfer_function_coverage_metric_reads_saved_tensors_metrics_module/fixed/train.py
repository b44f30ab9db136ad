import torch
import torch.nn as nn

from metrics import coverage
from ops import chamfer

N_POINTS = 32


class PointAutoEncoder(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, latent))
        self.dec = nn.Sequential(nn.Linear(latent, 64), nn.ReLU(), nn.Linear(64, N_POINTS * 3))

    def forward(self, pts):
        z = self.enc(pts).max(dim=1).values
        return self.dec(z).view(-1, N_POINTS, 3)


def ellipsoids(gen, batch=4):
    pts = torch.randn(batch, N_POINTS, 3, generator=gen)
    pts = pts / pts.norm(dim=-1, keepdim=True)
    axes = 0.5 + torch.rand(batch, 1, 3, generator=gen)
    return pts * axes


def train(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(8)
    model = PointAutoEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        gt = ellipsoids(gen)
        recon = model(gt)
        dist = chamfer(recon, gt)
        loss = dist.mean()
        cov = coverage(dist)  # read the saved matches before backward frees them
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} chamfer {loss.item():.4f} coverage {cov:.3f}")


if __name__ == "__main__":
    train()
