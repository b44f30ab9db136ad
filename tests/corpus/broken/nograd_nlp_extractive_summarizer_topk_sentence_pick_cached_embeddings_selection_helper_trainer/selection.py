"""Sentence selection for the extractive summariser."""
import torch
import torch.nn.functional as F


def summary_embedding(sent_emb, scores, k):
    """Mean embedding of the k best-scoring sentences: what the summary 'says'."""
    picked = scores.topk(k, dim=-1).indices
    chosen = sent_emb.gather(1, picked[..., None].expand(-1, -1, sent_emb.shape[-1]))
    return chosen.mean(dim=1)


def coverage_loss(summary, reference):
    """1 - cosine between the extract and the human abstract."""
    return (1.0 - F.cosine_similarity(summary, reference, dim=-1)).mean()
