"""Segmentation losses."""
import torch
import torch.nn.functional as F


def dice_bce(logits, target, smooth=1.0, bce_weight=0.5):
    """BCE on the logits plus soft Dice on the sigmoid probabilities."""
    bce = F.binary_cross_entropy_with_logits(logits, target)
    probs = torch.sigmoid(logits)
    inter = (probs * target).sum(dim=(1, 2, 3))
    union = probs.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    dice = 1 - (2 * inter + smooth) / (union + smooth)
    return bce_weight * bce + (1 - bce_weight) * dice.mean()
