"""Small dense-graph utilities shared by our GNN experiments."""
import torch


def normalize_adj(adj, add_self_loops=True):
    """Symmetric normalisation D^-1/2 (A + I) D^-1/2."""
    if add_self_loops:
        adj = adj + torch.eye(adj.shape[0])
    d = adj.sum(1).rsqrt()
    return d[:, None] * adj * d[None, :]


def drop_edges(adj, p, training=True):
    """DropEdge (Rong et al., 2020) on a dense normalised adjacency. Works in place so that a
    deep model does not allocate one extra N x N matrix per layer. Edges are dropped in both
    directions; self-loops are always kept."""
    if not training or p == 0:
        return adj
    keep = torch.triu((torch.rand_like(adj) > p).float(), diagonal=1)
    keep = keep + keep.t() + torch.eye(adj.shape[0])
    adj.mul_(keep)
    return adj


def masked_accuracy(logits, labels, mask):
    return (logits[mask].argmax(1) == labels[mask]).float().mean().item()


def random_split(n, train_frac, generator=None):
    perm = torch.randperm(n, generator=generator)
    mask = torch.zeros(n, dtype=torch.bool)
    mask[perm[:int(train_frac * n)]] = True
    return mask, ~mask
