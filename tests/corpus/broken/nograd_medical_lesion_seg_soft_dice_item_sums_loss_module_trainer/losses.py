"""Segmentation losses for the lesion project."""
import torch
import torch.nn as nn


class SoftDiceLoss(nn.Module):
    """1 - mean per-image soft Dice between sigmoid probabilities and the binary mask."""

    def __init__(self, smooth=1.0):
        super().__init__()
        self.smooth = smooth

    def forward(self, logits, masks):
        probs = torch.sigmoid(logits)
        dices = []
        for prob, mask in zip(probs, masks):
            intersection = (prob * mask).sum().item()
            cardinality = prob.sum().item() + mask.sum().item()
            dices.append((2.0 * intersection + self.smooth) / (cardinality + self.smooth))
        return torch.tensor(1.0 - sum(dices) / len(dices))
