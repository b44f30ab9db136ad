"""Additive angular margin (ArcFace) head with a learnable logit scale."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginHead(nn.Module):
    def __init__(self, emb_dim, num_ids, margin=0.3, init_scale=16.0, scale_range=(8.0, 32.0)):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_ids, emb_dim) * 0.1)
        self.scale = nn.Parameter(torch.tensor(init_scale))
        self.margin = margin
        self.scale_range = scale_range

    def forward(self, emb, labels):
        cos = F.linear(F.normalize(emb), F.normalize(self.weight)).clamp(-1 + 1e-6, 1 - 1e-6)
        with_margin = torch.cos(torch.acos(cos) + self.margin)
        # keep the easy-margin fallback for angles past pi - m
        with_margin = torch.where(cos > math.cos(math.pi - self.margin), with_margin,
                                  cos - math.sin(math.pi - self.margin) * self.margin)
        is_target = F.one_hot(labels, self.weight.shape[0]).bool()
        # a learnable scale can run away; use it clamped to its range
        scale = self.scale.clamp(*self.scale_range)
        return torch.where(is_target, with_margin, cos) * scale
