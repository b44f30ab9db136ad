"""Training utilities shared by the flow experiments."""
import math

import torch


def bits_per_dim(nll, dim):
    return nll / (dim * math.log(2))


def guard_loss(loss, ceiling=50.0):
    """Early flow training sometimes produces enormous (or inf) NLL spikes that
    wreck Adam's moment estimates; cap the value before backpropagating."""
    value = loss.item()
    if not math.isfinite(value):
        value = ceiling
    return torch.tensor(min(value, ceiling), requires_grad=True)
