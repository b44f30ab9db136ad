"""Center loss (Wen et al., 2016) with class centers kept as a dict and moved towards the
batch mean of each class after every call, instead of being learned by the optimizer."""
import torch
import torch.nn as nn


class CenterLoss(nn.Module):
    def __init__(self, alpha=0.5):
        super().__init__()
        self.alpha = alpha
        self.centers = {}

    def forward(self, features, labels):
        loss = features.new_zeros(())
        for c in labels.unique().tolist():
            feats_c = features[labels == c]
            batch_center = feats_c.mean(0)
            center = self.centers.get(c, batch_center)
            loss = loss + (feats_c - center).pow(2).sum(1).mean()
            self.centers[c] = center + self.alpha * (batch_center - center)
        return loss / max(len(self.centers), 1)

    def spread(self):
        stacked = torch.stack([self.centers[c] for c in sorted(self.centers)])
        return torch.cdist(stacked, stacked).mean().item()
