"""E(n)-equivariant graph layers (EGNN, Satorras et al.) on dense batches of point clouds.

Every layer rebuilds a k-nearest-neighbour graph from the current coordinates, so the
neighbourhoods follow the points as they are denoised.
"""
import torch
import torch.nn as nn


def gather_neighbours(x, idx):
    """x: (B, N, F), idx: (B, N, k) -> (B, N, k, F)."""
    batch = torch.arange(x.size(0)).view(-1, 1, 1)
    return x[batch, idx]


class EGNNLayer(nn.Module):
    def __init__(self, dim, k):
        super().__init__()
        self.k = k
        self.phi_e = nn.Sequential(nn.Linear(2 * dim + 1, dim), nn.SiLU(),
                                   nn.Linear(dim, dim), nn.SiLU())
        self.phi_x = nn.Linear(dim, 1, bias=False)
        nn.init.normal_(self.phi_x.weight, std=1e-2)
        self.phi_h = nn.Sequential(nn.Linear(2 * dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, h, coord):
        dist = torch.cdist(coord, coord)                                  # (B, N, N)
        knn = dist.topk(self.k + 1, dim=-1, largest=False).indices[..., 1:]
        d_ij = dist.gather(-1, knn).unsqueeze(-1)                         # (B, N, k, 1)
        h_j = gather_neighbours(h, knn)
        h_i = h.unsqueeze(2).expand_as(h_j)
        m = self.phi_e(torch.cat([h_i, h_j, d_ij ** 2], dim=-1))          # (B, N, k, D)
        rel = coord.unsqueeze(2) - gather_neighbours(coord, knn)          # (B, N, k, 3)
        coord += (rel * self.phi_x(m)).mean(dim=2)
        h = h + self.phi_h(torch.cat([h, m.sum(dim=2)], dim=-1))
        return h, coord


class EGNNDenoiser(nn.Module):
    """Denoises the coordinates and classifies the shape from the invariant features."""

    def __init__(self, dim=24, k=6, layers=3, n_classes=3):
        super().__init__()
        self.embed = nn.Linear(1, dim)
        self.layers = nn.ModuleList(EGNNLayer(dim, k) for _ in range(layers))
        self.classify = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, n_classes))

    def forward(self, coord):
        h = self.embed(coord.new_ones(coord.shape[:2] + (1,)))
        for layer in self.layers:
            h, coord = layer(h, coord)
        return coord, self.classify(h.mean(dim=1))
