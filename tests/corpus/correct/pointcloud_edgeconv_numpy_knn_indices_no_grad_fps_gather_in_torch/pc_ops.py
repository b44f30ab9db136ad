"""Point-cloud sampling and neighbourhood ops. Index computations (farthest point sampling,
k-nearest neighbours) are non-differentiable and run outside autograd; the features are
gathered with those indices in torch so gradients still flow to every layer."""
import numpy as np
import torch


@torch.no_grad()
def farthest_point_sample(points, m):
    """(B, N, 3) -> (B, m) indices of a farthest-point subset."""
    b, n, _ = points.shape
    idx = torch.zeros(b, m, dtype=torch.long)
    dist = torch.full((b, n), float("inf"))
    far = torch.zeros(b, dtype=torch.long)
    for i in range(m):
        idx[:, i] = far
        centre = points[torch.arange(b), far][:, None]
        dist = torch.minimum(dist, (points - centre).pow(2).sum(-1))
        far = dist.argmax(1)
    return idx


def knn_indices(feats, k):
    """(B, N, C) -> (B, N, k) neighbour indices, computed in NumPy on a detached copy."""
    f = feats.detach().cpu().numpy()
    sq = ((f[:, :, None, :] - f[:, None, :, :]) ** 2).sum(-1)
    return torch.from_numpy(np.argsort(sq, axis=-1)[:, :, 1:k + 1].copy())


def gather_neighbours(feats, idx):
    """feats (B, N, C), idx (B, N, k) -> (B, N, k, C), differentiable w.r.t. feats."""
    b, n, k = idx.shape
    flat = idx.reshape(b, n * k, 1).expand(-1, -1, feats.shape[-1])
    return torch.gather(feats, 1, flat).view(b, n, k, -1)
