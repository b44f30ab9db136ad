"""A small 'pretrained' feature extractor with a fresh classification head."""
import torch
import torch.nn as nn


class FineTuneNet(nn.Module):
    def __init__(self, in_dim=10, feat_dim=24, n_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Linear(in_dim, 32), nn.ReLU(),
            nn.Linear(32, feat_dim), nn.ReLU(),
        )
        self.head = nn.Linear(feat_dim, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


def pretrained_backbone_state(model):
    """Stand-in for loading a checkpoint: deterministic weights for the backbone."""
    gen = torch.Generator().manual_seed(1234)
    return {k: torch.randn(v.shape, generator=gen) * 0.3
            for k, v in model.backbone.state_dict().items()}
