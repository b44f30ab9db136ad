"""Objectives for the multi-task GCN: node classification on the labelled nodes and an
auxiliary link-prediction loss on observed edges against uniformly sampled non-edges."""
import torch
import torch.nn.functional as F


def sample_negative_edges(n_nodes, adj, n_samples, generator):
    src = torch.randint(0, n_nodes, (4 * n_samples,), generator=generator)
    dst = torch.randint(0, n_nodes, (4 * n_samples,), generator=generator)
    keep = (adj[src, dst] == 0) & (src != dst)
    return torch.stack([src[keep], dst[keep]])[:, :n_samples]


def compute_losses(model, graph, train_mask, generator):
    z = model.encode(graph["x"], graph["adj_norm"])
    losses = {"node_cls": F.cross_entropy(model.classifier(z[train_mask]), graph["y"][train_mask])}

    pos = graph["edges"]
    neg = sample_negative_edges(z.shape[0], graph["adj"], pos.shape[1], generator)
    pos_logits = model.link_decoder(z, pos)
    neg_logits = model.link_decoder(z, neg)
    logits = torch.cat([pos_logits, neg_logits])
    labels = torch.cat([torch.ones_like(pos_logits), torch.zeros_like(neg_logits)])
    losses["linkpred"] = F.binary_cross_entropy_with_logits(logits, labels)
    return losses
