"""Helpers for adapting a pretrained load forecaster to a new site."""
import torch.nn as nn


def freeze_batchnorm(model):
    """Keep the pretrained normalisation statistics and affine parameters fixed while
    the rest of the network adapts to the new site."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm1d):
            module.eval()
            for p in model.parameters():
                p.requires_grad = False


def count_trainable(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def frozen_modules(model):
    """Names of the submodules whose parameters are all frozen (for the run log)."""
    names = []
    for name, module in model.named_modules():
        params = list(module.parameters(recurse=False))
        if params and not any(p.requires_grad for p in params):
            names.append(name)
    return names


def rescale_head(model, factor):
    """New sites have a different load scale: rescale the last Linear layer once."""
    head = [m for m in model.modules() if isinstance(m, nn.Linear)][-1]
    head.weight.data.mul_(factor)
    head.bias.data.mul_(factor)
