"""Point-cloud shape classifier (sphere / cube / cylinder surfaces, 64 points each): a
shared point MLP, one radial-basis neighbourhood pooling layer with a learned bandwidth,
then a max-pooled global feature and a small classification head."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from ops import knn, radial_pool

N_POINTS, K = 64, 8


def sample_shape(kind, n, gen):
    u = torch.rand(n, 2, generator=gen)
    if kind == 0:  # sphere
        v = torch.randn(n, 3, generator=gen)
        return v / v.norm(dim=1, keepdim=True)
    if kind == 1:  # cube surface
        p = torch.rand(n, 3, generator=gen) * 2 - 1
        face = torch.randint(0, 3, (n,), generator=gen)
        p[torch.arange(n), face] = torch.sign(p[torch.arange(n), face])
        return p
    theta = 2 * math.pi * u[:, 0]  # cylinder side
    return torch.stack([theta.cos(), theta.sin(), u[:, 1] * 2 - 1], dim=1)


def make_batch(batch_size, gen):
    labels = torch.randint(0, 3, (batch_size,), generator=gen)
    clouds = torch.stack([sample_shape(int(c), N_POINTS, gen) for c in labels])
    return clouds + 0.02 * torch.randn(clouds.shape, generator=gen), labels


class RadialPointNet(nn.Module):
    def __init__(self, width=32, classes=3):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, width))
        self.log_bandwidth = nn.Parameter(torch.tensor(-1.0))
        self.post = nn.Sequential(nn.ReLU(), nn.Linear(width, 2 * width), nn.ReLU())
        self.head = nn.Linear(2 * width, classes)

    def forward(self, xyz):
        feats = self.point_mlp(xyz)
        pooled = radial_pool(feats, xyz, knn(xyz, K), self.log_bandwidth.exp())
        return self.head(self.post(pooled).max(dim=1).values)


def train(epochs=3, batches_per_epoch=2):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = RadialPointNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        for _ in range(batches_per_epoch):
            clouds, labels = make_batch(8, gen)
            loss = F.cross_entropy(model(clouds), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} "
              f"bandwidth {model.log_bandwidth.exp().item():.4f}")
    return model


if __name__ == "__main__":
    train()
