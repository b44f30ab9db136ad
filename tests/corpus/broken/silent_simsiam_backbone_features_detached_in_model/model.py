"""SimSiam for tabular sensor windows: a shared backbone and projector, and a predictor
head on one side of each pair of views."""
import torch.nn as nn
import torch.nn.functional as F


def mlp(sizes, last_bn=True):
    layers = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2 or last_bn:
            layers.append(nn.BatchNorm1d(b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class SimSiam(nn.Module):
    def __init__(self, in_dim=24, feat_dim=32, proj_dim=16):
        super().__init__()
        self.backbone = mlp([in_dim, 48, feat_dim], last_bn=False)
        self.projector = mlp([feat_dim, 32, proj_dim])
        self.predictor = mlp([proj_dim, 8, proj_dim], last_bn=False)

    def embed(self, x):
        feats = self.backbone(x)
        # stop-gradient on the siamese branch
        z = self.projector(feats.detach())
        return z, self.predictor(z)

    def forward(self, x1, x2):
        z1, p1 = self.embed(x1)
        z2, p2 = self.embed(x2)
        return z1, z2, p1, p2


def negative_cosine(p, z):
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()
