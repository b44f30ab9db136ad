"""Two-layer mean-aggregation GNN (GraphSAGE-like) for link prediction."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SageLayer(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.lin_self = nn.Linear(dim_in, dim_out)
        self.lin_neigh = nn.Linear(dim_in, dim_out, bias=False)

    def forward(self, x, adj_mean):
        return self.lin_self(x) + self.lin_neigh(adj_mean @ x)


class LinkGNN(nn.Module):
    def __init__(self, dim_in, hidden, dim_out):
        super().__init__()
        self.layer1 = SageLayer(dim_in, hidden)
        self.layer2 = SageLayer(hidden, dim_out)

    def forward(self, x, adj_mean):
        return self.layer2(F.relu(self.layer1(x, adj_mean)), adj_mean)

    def embed(self, x, adj_mean):
        """Unit-norm node embeddings; edges are scored by a scaled dot product."""
        return F.normalize(self(x, adj_mean), dim=-1)

    def score(self, z, edges):
        return 5.0 * (z[edges[0]] * z[edges[1]]).sum(-1)

    @torch.no_grad()
    def evaluate(self, x, adj_mean, pos, neg):
        z = self.embed(x, adj_mean)
        return (self.score(z, pos) > 0).float().mean().item(), (self.score(z, neg) < 0).float().mean().item()
