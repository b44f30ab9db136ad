"""Mini-batch GCN with historical embeddings (GNNAutoScale style): each layer computes fresh
embeddings only for the nodes of the current batch and takes every other node's embedding
from a per-layer history of earlier batches."""
import torch
import torch.nn as nn


class HistoryGCN(nn.Module):
    def __init__(self, n_nodes, in_dim, hidden, n_classes, n_layers=2):
        super().__init__()
        dims = [in_dim] + [hidden] * n_layers
        self.convs = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.classifier = nn.Linear(hidden, n_classes)
        self.histories = {f"conv{i}": torch.zeros(n_nodes, hidden) for i in range(n_layers)}

    def push_and_pull(self, name, batch, h_batch):
        full = self.histories[name].index_copy(0, batch, h_batch)
        self.histories[name] = full
        return full

    def forward(self, x, adj, batch):
        h = x
        for i, conv in enumerate(self.convs):
            h_batch = torch.relu(conv(adj[batch] @ h))
            h = self.push_and_pull(f"conv{i}", batch, h_batch)
        return self.classifier(h[batch])
