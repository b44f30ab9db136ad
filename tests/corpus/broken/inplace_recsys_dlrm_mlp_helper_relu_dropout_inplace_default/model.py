"""A small DLRM-style click-through-rate model: bottom MLP for dense features, embedding
tables for categorical ones, pairwise dot-product interactions, top MLP."""
import torch
import torch.nn as nn


def mlp(dims, dropout=0.0, final_activation=False, inplace=True):
    """Linear -> ReLU -> Dropout blocks (same layout as torchvision.ops.MLP); in-place
    activations by default to save activation memory."""
    layers = []
    for i, (d_in, d_out) in enumerate(zip(dims[:-1], dims[1:])):
        layers.append(nn.Linear(d_in, d_out))
        if i < len(dims) - 2 or final_activation:
            layers.append(nn.ReLU(inplace=inplace))
            if dropout > 0:
                layers.append(nn.Dropout(dropout, inplace=inplace))
    return nn.Sequential(*layers)


class DLRM(nn.Module):
    def __init__(self, n_dense, cardinalities, dim=8, dropout=0.1):
        super().__init__()
        self.bottom = mlp([n_dense, 32, dim], dropout=dropout, final_activation=True)
        self.tables = nn.ModuleList(nn.Embedding(c, dim) for c in cardinalities)
        n_vectors = len(cardinalities) + 1
        n_pairs = n_vectors * (n_vectors - 1) // 2
        self.top = mlp([dim + n_pairs, 32, 1])
        rows, cols = torch.triu_indices(n_vectors, n_vectors, offset=1)
        self.register_buffer("rows", rows)
        self.register_buffer("cols", cols)

    def forward(self, dense, sparse):
        dense_vec = self.bottom(dense)
        vectors = [dense_vec] + [table(sparse[:, i]) for i, table in enumerate(self.tables)]
        stacked = torch.stack(vectors, dim=1)
        inter = stacked @ stacked.transpose(1, 2)
        pairs = inter[:, self.rows, self.cols]
        return self.top(torch.cat([dense_vec, pairs], dim=1)).squeeze(-1)
