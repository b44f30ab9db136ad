"""GCN link predictor whose node inputs are fixed structural features (degree, clustering)
concatenated with a learnable per-node embedding table."""
import torch
import torch.nn as nn


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, adj_norm):
        return adj_norm @ self.lin(x)


class LinkPredictor(nn.Module):
    def __init__(self, num_nodes, struct_feats, emb_dim=8, hidden=16, out=8):
        super().__init__()
        self.register_buffer("struct_feats", struct_feats)
        self.node_emb = nn.Embedding(num_nodes, emb_dim)
        self.conv1 = GCNLayer(struct_feats.size(1) + emb_dim, hidden)
        self.conv2 = GCNLayer(hidden, out)

    def node_inputs(self):
        return torch.cat([self.struct_feats, self.node_emb.weight], dim=1)

    def forward(self, adj_norm):
        h = torch.relu(self.conv1(self.node_inputs(), adj_norm))
        return self.conv2(h, adj_norm)

    @staticmethod
    def score(z, edges):
        return (z[edges[0]] * z[edges[1]]).sum(dim=-1)
