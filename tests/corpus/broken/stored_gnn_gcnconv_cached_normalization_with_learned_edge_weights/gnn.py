"""Minimal GCN convolution with the usual symmetric normalisation and an optional cache of
the normalised edge weights (worth it on a fixed transductive graph: the normalisation is
computed once instead of every epoch)."""
import torch
import torch.nn as nn


def gcn_norm(edge_index, edge_weight, num_nodes):
    loops = torch.arange(num_nodes)
    edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    edge_weight = torch.cat([edge_weight, torch.ones(num_nodes)])
    row, col = edge_index
    deg = torch.zeros(num_nodes).index_add(0, col, edge_weight)
    dinv = deg.pow(-0.5)
    return edge_index, dinv[row] * edge_weight * dinv[col]


class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels, cached=False):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels))
        self.cached = cached
        self._cached_index = None
        self._cached_norm = None

    def forward(self, x, edge_index, edge_weight):
        if self.cached and self._cached_norm is not None:
            edge_index, norm = self._cached_index, self._cached_norm
        else:
            edge_index, norm = gcn_norm(edge_index, edge_weight, x.size(0))
            if self.cached:
                self._cached_index = edge_index
                self._cached_norm = norm
        h = self.lin(x)
        out = torch.zeros_like(h).index_add(0, edge_index[1], h[edge_index[0]] * norm[:, None])
        return out + self.bias
