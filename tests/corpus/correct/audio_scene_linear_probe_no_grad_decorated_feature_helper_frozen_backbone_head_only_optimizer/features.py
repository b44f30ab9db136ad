"""Frozen-backbone feature extraction for linear probing."""
import torch
import torch.nn as nn


def build_backbone():
    return nn.Sequential(
        nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 12, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )


def freeze(module):
    module.eval()
    for p in module.parameters():
        p.requires_grad_(False)
    return module


@torch.no_grad()
def extract(backbone, spec):
    return backbone(spec)
