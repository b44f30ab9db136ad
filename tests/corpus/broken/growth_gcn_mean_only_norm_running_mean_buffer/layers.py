"""Graph layers: a dense-adjacency GCN convolution and a mean-only normalisation that
centres node features with the graph's mean in training and with a running mean at
inference (like BatchNorm without the variance)."""
import torch
import torch.nn as nn


class MeanOnlyNodeNorm(nn.Module):
    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.bias = nn.Parameter(torch.zeros(dim))
        self.register_buffer("running_mean", torch.zeros(dim))

    def forward(self, h):
        if self.training:
            mean = h.mean(dim=0)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean
        else:
            mean = self.running_mean
        return h - mean + self.bias


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.norm = MeanOnlyNodeNorm(out_dim)

    def forward(self, adj_norm, h):
        return self.norm(adj_norm @ self.lin(h))
