"""Ranking metrics shared by the training loop and the offline report."""
import numpy as np


def pearson_r(pred, target):
    """Pearson correlation between predictions and targets, as in the leaderboard."""
    p = pred.detach().cpu().numpy().ravel()
    t = target.detach().cpu().numpy().ravel()
    p = p - p.mean()
    t = t - t.mean()
    return float((p * t).sum() / (np.sqrt((p ** 2).sum() * (t ** 2).sum()) + 1e-8))
