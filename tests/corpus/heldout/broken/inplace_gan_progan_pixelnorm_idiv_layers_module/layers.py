"""ProGAN-style building blocks: equalized learning-rate linear layers and pixelwise
feature normalisation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class EqualLinear(nn.Module):
    """Linear layer whose weights are scaled at runtime by He's constant."""

    def __init__(self, in_features, out_features, bias_init=0.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.full((out_features,), bias_init))
        self.scale = 1.0 / math.sqrt(in_features)

    def forward(self, x):
        return F.linear(x, self.weight * self.scale, self.bias)


class PixelNorm(nn.Module):
    """Normalise each feature vector to unit average magnitude (ProGAN, section 4.2)."""

    def __init__(self, eps=1e-8):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        x /= torch.sqrt(x.pow(2).mean(dim=1, keepdim=True) + self.eps)
        return x


class GeneratorBlock(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = EqualLinear(in_features, out_features)
        self.norm = PixelNorm()

    def forward(self, x):
        return self.norm(F.leaky_relu(self.fc(x), 0.2))
