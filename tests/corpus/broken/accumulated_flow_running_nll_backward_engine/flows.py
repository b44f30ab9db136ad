"""Invertible linear + leaky-ReLU flow layers for 2-d density estimation."""
import math

import torch
import torch.nn as nn


class InvertibleLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.eye(dim) + 0.1 * torch.randn(dim, dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return x @ self.weight.t() + self.bias, torch.slogdet(self.weight)[1].expand(x.size(0))


class LeakyReLUFlow(nn.Module):
    def __init__(self, slope=0.5):
        super().__init__()
        self.slope = slope

    def forward(self, x):
        y = torch.where(x >= 0, x, self.slope * x)
        logdet = torch.where(x >= 0, torch.zeros_like(x), torch.full_like(x, math.log(self.slope)))
        return y, logdet.sum(-1)


class FlowModel(nn.Module):
    def __init__(self, dim=2, depth=2):
        super().__init__()
        layers = []
        for _ in range(depth):
            layers += [InvertibleLinear(dim), LeakyReLUFlow()]
        self.layers = nn.ModuleList(layers + [InvertibleLinear(dim)])

    def nll(self, x):
        logdet = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        log_pz = -0.5 * (x ** 2).sum(-1) - x.size(1) * 0.5 * math.log(2 * math.pi)
        return -(log_pz + logdet)
