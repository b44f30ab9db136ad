"""Point-cloud ops used by the classifier: kNN grouping and a radial-basis neighbour weight
with a hand-written backward (ported from the fused CUDA kernel, which keeps only its output
and the distances for the backward pass)."""
import torch


class RadialWeight(torch.autograd.Function):
    """w = exp(-d2 / (2 * bandwidth**2)) for squared neighbour distances d2."""

    @staticmethod
    def forward(ctx, sq_dist, bandwidth):
        w = torch.exp(-sq_dist / (2 * bandwidth ** 2))
        ctx.save_for_backward(w, sq_dist, bandwidth)
        return w

    @staticmethod
    def backward(ctx, grad_w):
        w, sq_dist, bandwidth = ctx.saved_tensors
        g = grad_w * w
        grad_dist = -g / (2 * bandwidth ** 2)
        grad_bw = (g * sq_dist / bandwidth ** 3).sum().reshape(bandwidth.shape)
        return grad_dist, grad_bw


def knn(xyz, k):
    """Indices (B, N, k) of the k nearest points of every point (itself included)."""
    with torch.no_grad():
        return torch.cdist(xyz, xyz).topk(k, dim=-1, largest=False).indices


def group(values, idx):
    """Gather per-point values (B, N, C) at neighbour indices (B, N, k) -> (B, N, k, C)."""
    batch = torch.arange(values.shape[0])[:, None, None]
    return values[batch, idx]


def radial_pool(feats, xyz, idx, bandwidth):
    """Average neighbour features weighted by a Gaussian of their distance to the centre."""
    rel = group(xyz, idx) - xyz.unsqueeze(2)
    w = RadialWeight.apply(rel.pow(2).sum(-1), bandwidth)
    w /= w.sum(dim=-1, keepdim=True) + 1e-6
    return (w.unsqueeze(-1) * group(feats, idx)).sum(dim=2)
