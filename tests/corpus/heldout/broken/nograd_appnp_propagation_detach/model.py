"""APPNP: predict with an MLP, then propagate the predictions with personalized PageRank."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalized_adjacency(edge_index, n):
    adj = torch.zeros(n, n)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = adj + adj.t() + torch.eye(n)
    adj = (adj > 0).float()
    deg_inv_sqrt = adj.sum(1).pow(-0.5)
    return deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]


class PPRPropagation(nn.Module):
    """Parameter-free propagation: z <- (1 - alpha) * A z + alpha * h, K times."""

    def __init__(self, k=5, alpha=0.1):
        super().__init__()
        self.k, self.alpha = k, alpha

    def forward(self, h, adj):
        h = h.detach()  # no weights in here, no need to track the K propagation steps
        z = h
        for _ in range(self.k):
            z = (1 - self.alpha) * (adj @ z) + self.alpha * h
        return z


class APPNP(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, dropout=0.2):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Dropout(dropout), nn.Linear(in_dim, hidden), nn.ReLU(),
            nn.Dropout(dropout), nn.Linear(hidden, n_classes),
        )
        self.propagate = PPRPropagation()

    def forward(self, x, adj):
        return F.log_softmax(self.propagate(self.mlp(x), adj), dim=1)
