"""Ranking metrics shared by the offline evaluation and the listwise trainer."""
import numpy as np
import torch


def _discounts(n):
    return 1.0 / np.log2(np.arange(2, n + 2))


def approx_ndcg(scores, relevance, temperature=0.5):
    """Smooth NDCG (Qin et al. 2010): ranks approximated with sigmoids of score gaps.

    scores, relevance: (n_users, n_candidates). Returns the mean over users.
    """
    diff = (scores[:, None, :] - scores[:, :, None]) / temperature
    approx_rank = 0.5 + torch.sigmoid(diff).sum(-1)
    gains = 2.0 ** relevance - 1.0
    dcg = (gains / torch.log2(1.0 + approx_rank)).sum(-1)
    ideal = gains.sort(dim=-1, descending=True).values
    discounts = torch.as_tensor(_discounts(ideal.shape[-1]), dtype=scores.dtype)
    idcg = (ideal * discounts).sum(-1)
    return (dcg / idcg.clamp_min(1e-9)).mean()


def hard_ndcg_at_k(scores, relevance, k=5):
    s = scores.detach().cpu().numpy()
    rel = relevance.cpu().numpy()
    order = np.argsort(-s, axis=-1)[:, :k]
    gains = 2.0 ** np.take_along_axis(rel, order, axis=-1) - 1.0
    dcg = (gains * _discounts(k)).sum(-1)
    ideal = np.sort(2.0 ** rel - 1.0, axis=-1)[:, ::-1][:, :k]
    idcg = (ideal * _discounts(k)).sum(-1)
    return float((dcg / np.maximum(idcg, 1e-9)).mean())
