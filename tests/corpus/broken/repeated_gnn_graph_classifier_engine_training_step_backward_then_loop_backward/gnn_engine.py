"""A small in-house training engine shared by the team's graph models."""
import torch
import torch.nn.functional as F


def batch_graphs(graphs):
    """Block-diagonal batching of (adj, x, label) graphs into one big graph."""
    sizes = [adj.size(0) for adj, _, _ in graphs]
    adj = torch.block_diag(*[a for a, _, _ in graphs])
    x = torch.cat([f for _, f, _ in graphs])
    graph_index = torch.repeat_interleave(torch.arange(len(graphs)), torch.tensor(sizes))
    labels = torch.tensor([y for _, _, y in graphs])
    return adj, x, graph_index, labels


def training_step(model, graphs, max_grad_norm=1.0):
    """Forward, loss, backward and clipping for one batch; returns the loss for logging."""
    model.train()
    adj, x, graph_index, labels = batch_graphs(graphs)
    logits = model(adj, x, graph_index, len(graphs))
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    return loss
