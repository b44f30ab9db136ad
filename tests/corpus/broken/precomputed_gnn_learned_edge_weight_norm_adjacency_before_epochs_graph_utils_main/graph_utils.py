"""Dense helpers for a small citation-style graph."""
import torch


def ring_with_chords(n, chord_every=3):
    src = list(range(n)) + list(range(0, n, chord_every))
    dst = [(i + 1) % n for i in range(n)] + [(i + n // 2) % n for i in range(0, n, chord_every)]
    return torch.tensor([src, dst])


def normalized_adjacency(edge_index, edge_logits, n):
    """Symmetric D^-1/2 (A + I) D^-1/2 with a learned weight per edge."""
    weights = torch.sigmoid(edge_logits)
    adj = torch.zeros(n, n).index_put((edge_index[0], edge_index[1]), weights, accumulate=True)
    adj = adj + adj.t() + torch.eye(n)
    d_inv_sqrt = adj.sum(dim=1).rsqrt()
    return d_inv_sqrt.unsqueeze(1) * adj * d_inv_sqrt.unsqueeze(0)
