"""Small graph utilities shared by the node-classification experiments."""
import torch


def stochastic_block_model(sizes, p_in, p_out, gen):
    labels = torch.cat([torch.full((s,), i, dtype=torch.long) for i, s in enumerate(sizes)])
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    upper = torch.triu((torch.rand(probs.shape, generator=gen) < probs).float(), diagonal=1)
    adj = upper + upper.t() + torch.eye(len(labels))
    return adj, labels


def pair_norm(x, scale=1.0, eps=1e-6):
    """PairNorm (Zhao & Akoglu, 2020): centre the node features, then rescale so the mean
    squared row norm is `scale`; keeps deep GNNs from over-smoothing."""
    x = x - x.mean(dim=0, keepdim=True)
    rownorm_mean = (eps + x.pow(2).sum(dim=1).mean()).sqrt()
    return scale * x / rownorm_mean
