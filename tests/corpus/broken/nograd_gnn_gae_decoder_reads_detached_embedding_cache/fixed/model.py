"""Graph auto-encoder (Kipf & Welling 2016) for link prediction: a two-layer GCN encoder
and an inner-product decoder. The latest node embeddings are kept on the model so the
serving code can score arbitrary pairs without re-running the encoder."""
import torch
import torch.nn as nn


def normalized_adjacency(edge_index, n_nodes):
    adj = torch.zeros(n_nodes, n_nodes)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = ((adj + adj.t()) > 0).float() + torch.eye(n_nodes)
    d_inv_sqrt = adj.sum(1).rsqrt()
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, a_hat):
        return a_hat @ self.lin(x)


class GraphAutoEncoder(nn.Module):
    def __init__(self, d_in, d_hidden=32, d_latent=16):
        super().__init__()
        self.conv1 = GCNLayer(d_in, d_hidden)
        self.conv2 = GCNLayer(d_hidden, d_latent)
        self.register_buffer("node_embeddings", torch.empty(0))

    def encode(self, x, a_hat):
        return self.conv2(torch.relu(self.conv1(x, a_hat)), a_hat)

    def score(self, pairs, z=None):
        z = self.node_embeddings if z is None else z
        return (z[pairs[0]] * z[pairs[1]]).sum(-1)

    def forward(self, x, a_hat, pairs):
        z = self.encode(x, a_hat)
        self.node_embeddings = z.detach()
        return self.score(pairs, z)
