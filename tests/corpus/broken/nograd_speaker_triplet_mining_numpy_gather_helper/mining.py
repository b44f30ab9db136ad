"""Batch-hard triplet mining for the speaker-embedding experiments.

Distances and the arg-max/arg-min searches are done in NumPy: they are only used to
choose indices, and this keeps the mining code identical to the offline evaluation."""
import numpy as np
import torch


def batch_hard_triplets(emb, labels, margin):
    """For every anchor pick its farthest positive and closest negative and keep the
    triplets that still violate the margin. Returns a (3, n, dim) tensor."""
    e = emb.detach().numpy()
    lab = labels.numpy()
    dist = np.linalg.norm(e[:, None, :] - e[None, :, :], axis=-1)
    same = lab[:, None] == lab[None, :]
    pos_d = np.where(same, dist, -np.inf)
    np.fill_diagonal(pos_d, -np.inf)
    neg_d = np.where(same, np.inf, dist)
    p_idx, n_idx = pos_d.argmax(1), neg_d.argmin(1)
    hard = np.nonzero(pos_d.max(1) - neg_d.min(1) + margin > 0)[0]
    triplets = torch.from_numpy(np.stack([e[hard], e[p_idx[hard]], e[n_idx[hard]]]))
    return triplets, len(hard)


def equal_error_proxy(emb, labels):
    """Fraction of anchors whose nearest neighbour belongs to another speaker."""
    with torch.no_grad():
        d = torch.cdist(emb, emb).fill_diagonal_(float("inf"))
        return (labels[d.argmin(1)] != labels).float().mean().item()
