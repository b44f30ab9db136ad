"""Cheap edge explanations: which edges join nodes whose hidden features agree most.

Meant for a quick look during training, without a second forward pass or an explainer
model: the last layer's aggregation already holds the adjacency and the hidden features."""
import torch
import torch.nn.functional as F


def edge_scores(agg_out, top_k=3):
    # the aggregation Function already holds (adj, hidden) for its backward: reuse them
    adj, hidden = agg_out.grad_fn.saved_tensors
    sim = F.cosine_similarity(hidden[:, None, :], hidden[None, :, :], dim=-1)
    scores = (adj > 0).float() * sim
    scores.fill_diagonal_(float("-inf"))
    flat = scores.flatten().topk(top_k)
    n = adj.size(0)
    return [(int(i) // n, int(i) % n, round(v.item(), 3)) for v, i in zip(*flat)]


def homophily(adj, labels):
    """Fraction of (off-diagonal) edges that join nodes of the same class."""
    edges = (adj > 0) & ~torch.eye(adj.size(0), dtype=torch.bool)
    same = labels[:, None] == labels[None, :]
    return (edges & same).sum().item() / max(edges.sum().item(), 1)


def format_edges(edges, labels):
    parts = []
    for src, dst, score in edges:
        tag = "=" if labels[src] == labels[dst] else "x"
        parts.append(f"{src}-{dst}{tag}{score:.2f}")
    return " ".join(parts)
