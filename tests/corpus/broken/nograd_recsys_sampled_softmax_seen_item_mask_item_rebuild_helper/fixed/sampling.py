"""Negative sampling for the implicit-feedback recommender."""
import torch


def sample_candidates(pos_items, n_items, k, gen):
    """Each row: the positive item followed by k uniformly sampled negatives."""
    negatives = torch.randint(0, n_items, (pos_items.size(0), k), generator=gen)
    return torch.cat([pos_items[:, None], negatives], dim=1)


def candidate_logits(model, users, candidates, seen):
    """(batch, 1 + k) logits over each user's candidate list. Sampled negatives the user
    has already interacted with are false negatives, so they are pushed to -1e4."""
    scores = model(users[:, None].expand_as(candidates), candidates)
    false_neg = torch.tensor([[j > 0 and item in seen[u] for j, item in enumerate(items)]
                              for u, items in zip(users.tolist(), candidates.tolist())])
    return scores.masked_fill(false_neg, -1e4)
