"""Reusable CTR building blocks (shared by the ranking and the pre-ranking models)."""
import torch
import torch.nn as nn


class FieldEmbedding(nn.Module):
    """One embedding table per sparse field; the field embeddings are concatenated."""

    def __init__(self, cardinalities, dim):
        super().__init__()
        self.tables = nn.ModuleList(nn.Embedding(c, dim) for c in cardinalities)

    def forward(self, sparse):
        return torch.cat([t(sparse[:, i]) for i, t in enumerate(self.tables)], dim=1)


class CrossNetwork(nn.Module):
    """DCN cross layers: x_{l+1} = x_0 * (x_l . w_l) + b_l + x_l."""

    def __init__(self, dim, n_layers):
        super().__init__()
        self.kernels = nn.ModuleList(nn.Linear(dim, 1, bias=False) for _ in range(n_layers))
        self.biases = nn.ParameterList(nn.Parameter(torch.zeros(dim)) for _ in range(n_layers))

    def forward(self, x0):
        x = x0
        for kernel, bias in zip(self.kernels, self.biases):
            xw = kernel(x)                       # (B, 1)
            x = x + x0 * xw + bias               # residual update
        return x


def mlp(sizes, dropout=0.1):
    layers = []
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(n_in, n_out))
        if i < len(sizes) - 2:
            layers += [nn.ReLU(), nn.Dropout(dropout)]
    return nn.Sequential(*layers)
