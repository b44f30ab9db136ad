"""Mini-batch GCN with historical embeddings (GNNAutoScale-style): out-of-batch neighbours
are read from per-layer history tables instead of being recomputed."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HistoryGCN(nn.Module):
    def __init__(self, n_nodes, in_dim, hidden, n_classes, n_layers=3):
        super().__init__()
        dims = [in_dim] + [hidden] * (n_layers - 1) + [n_classes]
        self.convs = nn.ModuleList([nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.histories = [torch.zeros(n_nodes, hidden) for _ in range(n_layers - 1)]

    def forward(self, x, adj, batch):
        h_in = x
        for i, conv in enumerate(self.convs[:-1]):
            h = F.relu(conv(adj[batch] @ h_in))
            self.histories[i][batch] = h.detach()
            h_in = self.histories[i].index_copy(0, batch, h)
        return self.convs[-1](adj[batch] @ h_in)
