"""Activation-checkpointing helpers shared by the team's training scripts."""
import copy

import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class CheckpointWrapper(nn.Module):
    """Runs the wrapped module under non-reentrant activation checkpointing in training."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, *args):
        if self.training:
            return checkpoint(self.module, *args, use_reentrant=False)
        return self.module(*args)


def apply_activation_checkpointing(model, attr="blocks"):
    """Wrap each block of model.<attr> in a CheckpointWrapper.

    Blocks are copied before wrapping so that a block object shared with another model
    (e.g. a teacher built from the same layers) is never wrapped twice.
    """
    blocks = getattr(model, attr)
    for i in range(len(blocks)):
        blocks[i] = CheckpointWrapper(copy.deepcopy(blocks[i]))
    return model


def count_wrapped(model):
    return sum(isinstance(m, CheckpointWrapper) for m in model.modules())
