"""Reusable pieces for the CTR models: feature-cross layers and MLP towers."""
import torch.nn as nn


class CrossLayer(nn.Module):
    """DCN-v2 cross layer: x_{l+1} = x0 * (W x_l + b) + x_l."""

    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, x0, xl):
        return x0 * self.lin(xl) + xl


def make_tower(in_dim, hidden_dims, dropout=0.1):
    """Deep tower: dropout on the stacked input features, then Linear-BN-ReLU blocks."""
    layers = [nn.Dropout(dropout, inplace=True)]
    for width in hidden_dims:
        layers += [nn.Linear(in_dim, width), nn.BatchNorm1d(width), nn.ReLU()]
        in_dim = width
    return nn.Sequential(*layers)
