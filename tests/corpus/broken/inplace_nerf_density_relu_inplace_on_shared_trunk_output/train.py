"""Diffuse (view-independent) radiance field for a synthetic scene, instant-NGP style: one
trunk MLP outputs a density logit plus a geometry feature, and a small colour MLP reads the
feature. Rays are rendered by alpha compositing along a fixed set of depths."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FREQS, N_SAMPLES, GEO_DIM = 4, 16, 8


def encode(x):
    freqs = 2.0 ** torch.arange(N_FREQS) * math.pi
    angles = x[..., None] * freqs
    return torch.cat([x, angles.sin().flatten(-2), angles.cos().flatten(-2)], dim=-1)


class DiffuseField(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        in_dim = 3 * (1 + 2 * N_FREQS)
        self.heads = nn.ModuleDict({
            "trunk": nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(),
                                   nn.Linear(hidden, 1 + GEO_DIM)),
            "rgb": nn.Sequential(nn.Linear(GEO_DIM, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 3), nn.Sigmoid()),
        })
        self.sigma_act = nn.ReLU(inplace=True)

    def forward(self, pts):
        h = self.heads["trunk"](encode(pts.reshape(-1, 3)))
        rgb = self.heads["rgb"](h[:, 1:])
        sigma = self.sigma_act(h[:, 0])
        return sigma.view(pts.shape[:-1]), rgb.view(*pts.shape[:-1], 3)


def render(field, rays_o, rays_d, near=0.5, far=2.5):
    t = torch.linspace(near, far, N_SAMPLES)
    pts = rays_o[:, None] + rays_d[:, None] * t[:, None]
    sigma, rgb = field(pts)
    alpha = 1 - torch.exp(-sigma * (far - near) / N_SAMPLES)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha[:, :-1] + 1e-10], 1), 1)
    return ((alpha * trans)[..., None] * rgb).sum(dim=1)


def synthetic_rays(n, gen):
    """Rays from a camera ring at radius 1.5 towards the origin, with ground-truth colour of
    a red ball (radius 0.5) on a blue background."""
    angle = torch.rand(n, generator=gen) * 2 * math.pi
    origin = torch.stack([1.5 * angle.cos(), 1.5 * angle.sin(), torch.zeros(n)], 1)
    target = 0.4 * (torch.rand(n, 3, generator=gen) - 0.5)
    direction = F.normalize(target - origin, dim=1)
    b = (origin * direction).sum(1)
    hit = (b ** 2 - (origin.pow(2).sum(1) - 0.25)) > 0
    color = torch.where(hit[:, None], torch.tensor([0.9, 0.1, 0.1]), torch.tensor([0.1, 0.1, 0.8]))
    return origin, direction, color


def main(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    field = DiffuseField()
    optimizer = torch.optim.Adam(field.parameters(), lr=5e-3)
    for step in range(steps):
        rays_o, rays_d, target = synthetic_rays(64, gen)
        loss = F.mse_loss(render(field, rays_o, rays_d), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        psnr = -10 * math.log10(loss.item())
        print(f"step {step} mse {loss.item():.5f} psnr {psnr:.2f}")
    return field


if __name__ == "__main__":
    main()
