"""Epoch-level metrics for multi-label tagging."""
import torch


def macro_roc_auc(probs, targets):
    """Mean over tags of the rank-based (Mann-Whitney) ROC-AUC; tags with only one class
    present in the epoch are skipped."""
    aucs = []
    for k in range(probs.shape[1]):
        scores, labels = probs[:, k], targets[:, k].bool()
        n_pos, n_neg = int(labels.sum()), int((~labels).sum())
        if n_pos == 0 or n_neg == 0:
            continue
        ranks = scores.argsort().argsort().float() + 1
        aucs.append((ranks[labels].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
    return torch.stack(aucs).mean().item()
