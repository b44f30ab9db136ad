"""Epoch-level segmentation metrics. Dice is computed from the soft probabilities so the
number is comparable with the soft-Dice term in the loss."""
import torch
import torch.nn.functional as F


class SoftDiceMeter:
    def __init__(self, n_classes, eps=1e-6):
        self.n_classes, self.eps = n_classes, eps
        self.reset()

    def reset(self):
        self.intersection = torch.zeros(self.n_classes)
        self.denominator = torch.zeros(self.n_classes)

    def update(self, probs, masks):
        onehot = F.one_hot(masks, self.n_classes).permute(0, 3, 1, 2).float()
        self.intersection += (probs * onehot).sum(dim=(0, 2, 3))
        self.denominator += (probs + onehot).sum(dim=(0, 2, 3))

    def compute(self):
        dice = (2 * self.intersection + self.eps) / (self.denominator + self.eps)
        return dice.mean().item(), dice.tolist()
