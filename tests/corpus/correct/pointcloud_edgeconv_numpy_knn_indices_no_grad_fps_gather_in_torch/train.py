"""Shape classification (sphere / cylinder / cube / cone) with a two-layer EdgeConv network on
32 farthest-point-sampled points; the neighbourhood graph of the second layer is recomputed
in feature space (dynamic graph), with the kNN search done in NumPy."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from pc_ops import farthest_point_sample, gather_neighbours, knn_indices

torch.manual_seed(0)
N_RAW, N_PTS, K, N_CLASSES = 96, 32, 6, 4


def shape(kind, n, gen):
    u, v = torch.rand(n, generator=gen), torch.rand(n, generator=gen)
    theta = 2 * math.pi * u
    if kind == 0:
        z = 2 * v - 1
        r = (1 - z ** 2).sqrt()
    elif kind == 1:
        z, r = 2 * v - 1, torch.ones(n)
    elif kind == 2:
        return 2 * torch.rand(n, 3, generator=gen) - 1
    else:
        z, r = 2 * v - 1, 1 - v
    return torch.stack([r * theta.cos(), r * theta.sin(), z], 1)


def dataset(n, gen):
    y = torch.randint(0, N_CLASSES, (n,), generator=gen)
    clouds = torch.stack([shape(int(k), N_RAW, gen) for k in y])
    return clouds + 0.02 * torch.randn(clouds.shape, generator=gen), y


class EdgeConv(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * c_in, c_out), nn.ReLU())

    def forward(self, feats, k):
        idx = knn_indices(feats, k)
        nbrs = gather_neighbours(feats, idx)
        centre = feats[:, :, None].expand_as(nbrs)
        return self.mlp(torch.cat([centre, nbrs - centre], -1)).max(dim=2).values


class DGCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.ec1, self.ec2 = EdgeConv(3, 16), EdgeConv(16, 32)
        self.head = nn.Linear(48, N_CLASSES)

    def forward(self, pts):
        h1 = self.ec1(pts, K)
        h2 = self.ec2(h1, K)
        return self.head(torch.cat([h1, h2], -1).max(dim=1).values)


def main():
    gen = torch.Generator().manual_seed(0)
    clouds, labels = dataset(64, gen)
    idx = farthest_point_sample(clouds, N_PTS)
    pts = torch.gather(clouds, 1, idx[..., None].expand(-1, -1, 3))
    model = DGCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(3):
        for i in range(0, len(pts), 32):
            logits = model(pts[i:i + 32])
            loss = F.cross_entropy(logits, labels[i:i + 32])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            acc = (model(pts).argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} train acc {acc:.3f}")
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
