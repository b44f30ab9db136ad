"""Helpers for private training: per-batch clipping, noise, and a module fixer that makes
a network compatible with per-sample gradient clipping (no BatchNorm statistics shared
across patients)."""
import torch
import torch.nn as nn


def make_dp_compatible(module, groups=4):
    """Replace every BatchNorm2d by a GroupNorm with the same number of channels."""
    for name, child in module.named_children():
        if isinstance(child, nn.BatchNorm2d):
            setattr(module, name, nn.GroupNorm(min(groups, child.num_features), child.num_features))
        else:
            make_dp_compatible(child, groups)
    return module


def clip_and_noise_(params, max_norm, noise_multiplier, batch_size, generator):
    params = [p for p in params if p.grad is not None]
    torch.nn.utils.clip_grad_norm_(params, max_norm)
    for p in params:
        noise = torch.randn(p.grad.shape, generator=generator) * noise_multiplier * max_norm
        p.grad.add_(noise / batch_size)
