"""Dense-adjacency GCN pieces for the citation-style node classifier."""
import torch
import torch.nn as nn


def normalized_adjacency(edge_index, n):
    a = torch.zeros(n, n)
    a[edge_index[0], edge_index[1]] = 1.0
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, a_hat):
        return a_hat @ self.lin(x)


class GCNEncoder(nn.Module):
    def __init__(self, d_in, hidden, layers=3):
        super().__init__()
        dims = [d_in] + [hidden] * layers
        self.convs = nn.ModuleList(GCNLayer(i, o) for i, o in zip(dims[:-1], dims[1:]))

    def forward(self, x, a_hat):
        for conv in self.convs:
            x = torch.relu(conv(x, a_hat))
        return x


class NodeClassifier(nn.Module):
    def __init__(self, encoder, hidden, n_classes):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x, a_hat):
        return self.head(self.encoder(x, a_hat))
