"""Small-loss sample selection for co-teaching on noisy labels (Han et al., 2018)."""
import torch
import torch.nn.functional as F


def per_sample_losses(net, x, y):
    logits = net(x)
    return F.cross_entropy(logits, y, reduction="none")


def small_loss_indices(losses, keep_ratio):
    k = max(1, int(keep_ratio * losses.numel()))
    return torch.argsort(losses)[:k]
