"""Encoder and SwAV head. The head keeps its prototypes on the unit sphere by renormalising
them at the start of every forward call."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_dim=32, feat_dim=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, 128), nn.BatchNorm1d(128), nn.ReLU(),
            nn.Linear(128, feat_dim),
        )

    def forward(self, x):
        return self.net(x)


class SwAVHead(nn.Module):
    def __init__(self, feat_dim=64, proj_dim=32, n_prototypes=10):
        super().__init__()
        self.projector = nn.Sequential(nn.Linear(feat_dim, 64), nn.ReLU(), nn.Linear(64, proj_dim))
        self.prototypes = nn.Linear(proj_dim, n_prototypes, bias=False)

    def forward(self, feats):
        with torch.no_grad():
            self.prototypes.weight.div_(self.prototypes.weight.norm(dim=1, keepdim=True))
        z = F.normalize(self.projector(feats), dim=1)
        return self.prototypes(z)
