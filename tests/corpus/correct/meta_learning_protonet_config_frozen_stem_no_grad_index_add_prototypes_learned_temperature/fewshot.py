"""Prototypical classifier with a pretrained convolutional stem that can be frozen from
the config, a trainable projection head and a learned distance temperature."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class FewShotConfig:
    way: int = 4
    shot: int = 2
    query: int = 3
    dim: int = 16
    freeze_stem: bool = True
    lr: float = 3e-3


class ProtoClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.stem = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(inplace=True),
                                  nn.MaxPool2d(2), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(8 * 5 * 5, 32), nn.ReLU(), nn.Linear(32, cfg.dim))
        self.log_tau = nn.Parameter(torch.zeros(()))
        if cfg.freeze_stem:
            self.stem.requires_grad_(False)

    def embed(self, images):
        if self.cfg.freeze_stem:
            with torch.no_grad():
                feats = self.stem(images)
        else:
            feats = self.stem(images)
        return F.normalize(self.head(feats), dim=-1)

    def forward(self, support, support_labels, query):
        cfg = self.cfg
        emb_s, emb_q = self.embed(support), self.embed(query)
        prototypes = torch.zeros(cfg.way, cfg.dim).index_add_(0, support_labels, emb_s)
        prototypes = prototypes / cfg.shot
        return -torch.cdist(emb_q, prototypes).pow(2) * self.log_tau.exp() * 10.0


def trainable_parameters(model):
    return [p for p in model.parameters() if p.requires_grad]
