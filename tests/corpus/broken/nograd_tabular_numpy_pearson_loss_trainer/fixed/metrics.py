"""Ranking metrics shared by the training loop and the offline report."""
import torch


def pearson_r(pred, target):
    """Pearson correlation between predictions and targets, as in the leaderboard."""
    p = pred.reshape(-1)
    t = target.reshape(-1)
    p = p - p.mean()
    t = t - t.mean()
    return (p * t).sum() / (torch.sqrt((p ** 2).sum() * (t ** 2).sum()) + 1e-8)
