"""Popularity correction shared by the serving path and the training script.

Logit adjustment (Menon et al.): subtract tau * log(prior) so that long-tail items are not
crowded out by the head of the catalogue."""
import torch


def item_log_prior(item_counts, smoothing=1.0):
    counts = item_counts.float() + smoothing
    return torch.log(counts / counts.sum())


def adjust_logits(logits, log_prior, tau=1.0):
    """Scores for ranking: raw logits minus tau * log prior, one row per user."""
    adjusted = logits - tau * log_prior.unsqueeze(0)
    return adjusted


def top_k(logits, log_prior, k=5, tau=1.0):
    return adjust_logits(logits, log_prior, tau).topk(k, dim=1).indices
