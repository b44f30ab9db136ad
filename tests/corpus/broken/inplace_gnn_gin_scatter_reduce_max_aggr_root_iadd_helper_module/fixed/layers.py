"""GIN-style message passing layer with a configurable neighbourhood aggregation.

The first version summed neighbour features with index_add_; the aggregation now goes
through scatter_utils.scatter so that max / mean can be tried as well."""
import torch
import torch.nn as nn

from scatter_utils import scatter


class GINConv(nn.Module):
    def __init__(self, d_in, d_out, aggr="amax"):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(d_in, d_out), nn.ReLU(), nn.Linear(d_out, d_out))
        self.aggr = aggr

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = scatter(x[src], dst, x.size(0), reduce=self.aggr)
        agg = agg + (1 + self.eps) * x
        return self.mlp(agg)


class GIN(nn.Module):
    def __init__(self, d_in, hidden, n_classes, n_layers=3, aggr="amax"):
        super().__init__()
        dims = [d_in] + [hidden] * n_layers
        self.convs = nn.ModuleList(GINConv(a, b, aggr) for a, b in zip(dims[:-1], dims[1:]))
        self.readout = nn.Linear(hidden, n_classes)

    def forward(self, x, edge_index, batch, n_graphs):
        for conv in self.convs:
            x = torch.relu(conv(x, edge_index))
        return self.readout(scatter(x, batch, n_graphs, reduce="mean"))
