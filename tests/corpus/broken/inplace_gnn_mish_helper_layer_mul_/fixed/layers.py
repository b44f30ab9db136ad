"""Small graph layers shared by the node-classification experiments."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalized_adjacency(edge_index, num_nodes):
    """D^-1/2 (A + I) D^-1/2 as a dense matrix (graphs here are tiny)."""
    adj = torch.eye(num_nodes)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj[edge_index[1], edge_index[0]] = 1.0
    deg_inv_sqrt = adj.sum(1).rsqrt()
    return deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]


class Mish(nn.Module):
    """x * tanh(softplus(x)); multiplies into x to avoid one more activation buffer."""

    def forward(self, x):
        return x * F.softplus(x).tanh()


class GraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, adj_norm):
        return adj_norm @ self.lin(x)


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, dropout=0.1):
        super().__init__()
        self.conv1 = GraphConv(in_dim, hidden)
        self.act = Mish()
        self.conv2 = GraphConv(hidden, n_classes)
        self.dropout = dropout

    def forward(self, x, adj_norm):
        h = self.act(self.conv1(x, adj_norm))
        h = F.dropout(h, self.dropout, self.training)
        return self.conv2(h, adj_norm)
