"""Ranking metrics shared by the offline evaluation report and the trainer."""
import torch


def batch_auc(scores, clicks):
    """Mann-Whitney AUC of one batch: the share of (click, no-click) pairs that the
    model ranks the right way round, ties counting one half."""
    pos = scores[clicks > 0.5]
    neg = scores[clicks <= 0.5]
    margin = pos[:, None] - neg[None, :]
    wins = (margin > 0).float() + 0.5 * (margin == 0).float()
    return wins.mean()


def hit_rate(scores, clicks, k=5):
    top = scores.topk(k).indices
    return clicks[top].mean().item()
