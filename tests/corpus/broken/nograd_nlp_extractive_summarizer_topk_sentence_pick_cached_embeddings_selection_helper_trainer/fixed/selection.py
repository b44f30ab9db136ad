"""Sentence selection for the extractive summariser."""
import torch
import torch.nn.functional as F


def summary_embedding(sent_emb, scores, k):
    """Mean embedding of the k best-scoring sentences: what the summary 'says'.

    topk().indices has no gradient, so the pick is made straight-through: the forward
    pass keeps the hard 0/1 selection, the backward pass uses the gradient of a
    softmax relaxation of the scores (scaled to k picks)."""
    picked = torch.zeros_like(scores).scatter(1, scores.topk(k, dim=-1).indices, 1.0)
    soft = k * torch.softmax(scores, dim=-1)
    picked = picked + soft - soft.detach()
    return (picked[..., None] * sent_emb).sum(dim=1) / k


def coverage_loss(summary, reference):
    """1 - cosine between the extract and the human abstract."""
    return (1.0 - F.cosine_similarity(summary, reference, dim=-1)).mean()
