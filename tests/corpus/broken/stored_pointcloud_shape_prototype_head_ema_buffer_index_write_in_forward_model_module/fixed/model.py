"""PointNet-style shape classifier with a prototype head: each class keeps a prototype
direction in a buffer, refreshed from the batch's embeddings during training, and shapes
are scored by scaled cosine similarity against all prototypes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointEncoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.shared = nn.Sequential(nn.Conv1d(3, 16, 1), nn.ReLU(), nn.Conv1d(16, dim, 1))

    def forward(self, points):
        return self.shared(points.transpose(1, 2)).max(dim=2).values


class PrototypeHead(nn.Module):
    def __init__(self, dim, n_classes, momentum=0.8):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.log_scale = nn.Parameter(torch.tensor(2.0))
        self.momentum = momentum
        self.register_buffer("prototypes", F.normalize(torch.randn(n_classes, dim), dim=1))

    def refresh(self, z, labels):
        for c in labels.unique().tolist():
            mean = z[labels == c].detach().mean(dim=0)
            blended = self.momentum * self.prototypes[c] + (1 - self.momentum) * mean
            self.prototypes[c] = F.normalize(blended, dim=0)

    def forward(self, feats, labels=None):
        z = F.normalize(self.proj(feats), dim=1)
        if self.training and labels is not None:
            self.refresh(z, labels)
        return self.log_scale.exp() * z @ self.prototypes.t()


class ShapeClassifier(nn.Module):
    def __init__(self, n_classes, dim=32):
        super().__init__()
        self.encoder = PointEncoder(dim)
        self.head = PrototypeHead(dim, n_classes)

    def forward(self, points, labels=None):
        return self.head(self.encoder(points), labels)
