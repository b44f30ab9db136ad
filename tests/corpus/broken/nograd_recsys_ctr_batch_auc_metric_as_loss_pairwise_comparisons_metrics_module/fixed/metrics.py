"""Ranking metrics shared by the offline evaluation report and the trainer."""
import torch


def batch_auc(scores, clicks, temperature=0.1):
    """Smoothed Mann-Whitney AUC of one batch: each (click, no-click) pair counts
    sigmoid(margin / temperature) instead of the hard 0 / 0.5 / 1 indicator, so the
    value has a gradient (it tends to the exact AUC as temperature goes to 0)."""
    pos = scores[clicks > 0.5]
    neg = scores[clicks <= 0.5]
    margin = pos[:, None] - neg[None, :]
    wins = torch.sigmoid(margin / temperature)
    return wins.mean()


def hit_rate(scores, clicks, k=5):
    top = scores.topk(k).indices
    return clicks[top].mean().item()
