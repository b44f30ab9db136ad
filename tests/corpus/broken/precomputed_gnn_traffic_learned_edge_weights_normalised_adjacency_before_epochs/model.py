"""Graph convolutional traffic-speed forecaster whose road-graph edge weights are learned."""
import torch
import torch.nn as nn


class LearnedRoadGraph(nn.Module):
    """Keeps one learnable weight per known road segment and builds the symmetric
    normalised adjacency D^-1/2 (A + I) D^-1/2 from them."""

    def __init__(self, edge_index, n_nodes):
        super().__init__()
        self.register_buffer("edge_index", edge_index)
        self.n_nodes = n_nodes
        self.edge_logits = nn.Parameter(torch.zeros(edge_index.size(1)))

    def normalised_adjacency(self):
        weights = torch.sigmoid(self.edge_logits)
        adj = torch.zeros(self.n_nodes, self.n_nodes)
        adj = adj.index_put((self.edge_index[0], self.edge_index[1]), weights)
        adj = adj + adj.t() + torch.eye(self.n_nodes)
        d_inv_sqrt = adj.sum(1).pow(-0.5)
        return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class GraphForecaster(nn.Module):
    def __init__(self, history, horizon, hidden=16):
        super().__init__()
        self.inp = nn.Linear(history, hidden)
        self.mix = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, horizon)

    def forward(self, x, norm_adj):
        # x: (batch, nodes, history)
        h = torch.relu(self.inp(x))
        h = torch.relu(self.mix(norm_adj @ h))
        return self.out(norm_adj @ h)
