"""Deep residual GCN for node classification (the ResGCN recipe: GCN -> norm -> ReLU,
then add the block input back so that eight layers do not over-smooth)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResGCNBlock(nn.Module):
    def __init__(self, dim, dropout=0.1):
        super().__init__()
        self.lin = nn.Linear(dim, dim, bias=False)
        self.norm = nn.LayerNorm(dim)
        self.dropout = dropout

    def forward(self, h, adj):
        out = adj @ self.lin(h)
        out = F.relu(self.norm(out))
        out += h  # residual connection
        return F.dropout(out, self.dropout, self.training)


class ResGCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, depth=4):
        super().__init__()
        self.inp = nn.Linear(in_dim, hidden)
        self.blocks = nn.ModuleList(ResGCNBlock(hidden) for _ in range(depth))
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x, adj):
        h = self.inp(x)
        for block in self.blocks:
            h = block(h, adj)
        return self.out(h)


def normalized_adjacency(edge_index, n):
    adj = torch.zeros(n, n)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = ((adj + adj.t()) > 0).float() + torch.eye(n)
    d_inv_sqrt = adj.sum(1).pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]
