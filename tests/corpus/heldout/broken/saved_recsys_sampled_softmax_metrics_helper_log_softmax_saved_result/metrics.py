"""Ranking metrics for the candidate-list recommender (candidate 0 is the clicked item)."""
import torch


def hit_rate_at_k(log_probs, k):
    """Share of rows where the clicked item (column 0) ranks in the top k."""
    topk = log_probs.topk(k, dim=1).indices
    return (topk == 0).any(dim=1).float().mean().item()


def mean_reciprocal_rank(log_probs):
    rank = (log_probs > log_probs[:, :1]).sum(dim=1) + 1
    return (1.0 / rank.float()).mean().item()


def ndcg_at_k(log_probs, k):
    """Single relevant item (column 0): DCG = 1 / log2(rank + 1) if it ranks in the top k."""
    rank = (log_probs > log_probs[:, :1]).sum(dim=1) + 1
    gain = 1.0 / torch.log2(rank.float() + 1)
    return torch.where(rank <= k, gain, torch.zeros_like(gain)).mean().item()


def report(step, nll, k=3):
    """Log the metrics for a training step from its NLL loss. The probabilities are taken
    from the log-softmax output that autograd kept for the loss, so the (large) score
    matrix does not have to be passed around or recomputed."""
    log_probs = nll.grad_fn.next_functions[0][0]._saved_result
    return {
        "step": step,
        "nll": nll.item(),
        f"hit@{k}": hit_rate_at_k(log_probs, k),
        "mrr": mean_reciprocal_rank(log_probs),
        f"ndcg@{k}": ndcg_at_k(log_probs, k),
    }
