"""Segmentation losses for the lesion project."""
import torch
import torch.nn as nn


class SoftDiceLoss(nn.Module):
    """1 - mean per-image soft Dice between sigmoid probabilities and the binary mask."""

    def __init__(self, smooth=1.0):
        super().__init__()
        self.smooth = smooth

    def forward(self, logits, masks):
        probs = torch.sigmoid(logits).flatten(1)
        masks = masks.flatten(1)
        intersection = (probs * masks).sum(1)
        cardinality = probs.sum(1) + masks.sum(1)
        dices = (2.0 * intersection + self.smooth) / (cardinality + self.smooth)
        return 1.0 - dices.mean()
