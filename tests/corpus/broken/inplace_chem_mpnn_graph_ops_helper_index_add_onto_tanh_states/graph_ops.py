"""Scatter helpers for batched molecular graphs (no torch_scatter on the cluster)."""
import torch


def scatter_sum_(out, index, src):
    """Add the rows of src onto out[index] (in place, no extra buffer) and return out."""
    return out.index_add_(0, index, src)


def graph_mean(node_feats, batch, num_graphs):
    """Mean of the node features of each graph in the batch."""
    total = scatter_sum_(node_feats.new_zeros(num_graphs, node_feats.shape[1]), batch, node_feats)
    count = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(1)
    return total / count
