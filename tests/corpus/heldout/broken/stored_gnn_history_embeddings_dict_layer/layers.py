"""GraphSAGE-style layer with historical embeddings (as in GNNAutoScale): when a mini-batch
of target nodes is processed, neighbours that were seen in an earlier batch contribute their
last computed embedding from the history instead of being recomputed."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAGEWithHistory(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_self = nn.Linear(in_dim, out_dim)
        self.lin_in = nn.Linear(in_dim, out_dim)
        self.lin_neigh = nn.Linear(out_dim, out_dim, bias=False)
        self.history = {}

    def neighbour_embedding(self, x, node):
        if node in self.history:
            return self.history[node]
        return torch.tanh(self.lin_in(x[node]))

    def forward(self, x, batch_nodes, adjacency):
        aggregated = []
        for v in batch_nodes.tolist():
            neigh = adjacency[v].nonzero().flatten().tolist() or [v]
            aggregated.append(torch.stack([self.neighbour_embedding(x, u) for u in neigh]).mean(0))
        h = F.relu(self.lin_self(x[batch_nodes]) + self.lin_neigh(torch.stack(aggregated)))
        for i, v in enumerate(batch_nodes.tolist()):
            self.history[v] = h[i]
        return h
