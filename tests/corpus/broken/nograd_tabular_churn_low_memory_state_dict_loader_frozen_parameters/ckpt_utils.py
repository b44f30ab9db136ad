"""Checkpoint helpers. load_state_dict_low_memory() swaps the checkpoint tensors into the
module instead of copying them into freshly initialised parameters, so the weights are
never held twice (the production scorer loads very wide embedding tables this way)."""
import torch.nn as nn


def load_state_dict_low_memory(model, state_dict):
    for name, value in state_dict.items():
        module_name, _, attr = name.rpartition(".")
        module = model.get_submodule(module_name)
        if attr in module._parameters:
            module._parameters[attr] = nn.Parameter(value, requires_grad=False)
        elif attr in module._buffers:
            module._buffers[attr] = value
        else:
            raise KeyError(f"unexpected key {name}")
    return model


def count_trainable(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
