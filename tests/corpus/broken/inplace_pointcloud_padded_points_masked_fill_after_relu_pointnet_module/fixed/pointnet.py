"""PointNet classifier for padded, variable-size point clouds."""
import torch
import torch.nn as nn


def mask_padding(feats, valid):
    """Zero the features of padded points so they never win the max-pool."""
    return feats.masked_fill(~valid.unsqueeze(-1), 0.0)


class PointNetCls(nn.Module):
    def __init__(self, n_classes=4, width=32):
        super().__init__()
        self.mlp1 = nn.Sequential(nn.Linear(3, width), nn.ReLU())
        self.mlp2 = nn.Sequential(nn.Linear(width, 2 * width), nn.ReLU())
        self.head = nn.Linear(2 * width, n_classes)

    def forward(self, pts, valid):
        h = self.mlp1(pts)
        h = self.mlp2(h)
        h = mask_padding(h, valid)
        return self.head(h.max(dim=1).values)
