"""Hand-written LoRA adapters: wrap chosen nn.Linear layers of a pretrained model with a
trainable low-rank update and freeze everything else."""
import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    """y = W x + b + (alpha / r) * B(A(x)), with the pretrained W, b kept frozen."""

    def __init__(self, base, rank, alpha):
        super().__init__()
        self.base = base
        self.down = nn.Parameter(torch.empty(rank, base.in_features))
        self.up = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.down, a=math.sqrt(5))
        self.scaling = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.down.t() @ self.up.t()) * self.scaling


def inject_lora(model, targets, rank, alpha):
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in targets and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, rank, alpha))
    return model


def mark_only_lora_as_trainable(model, keyword="lora_"):
    for name, param in model.named_parameters():
        param.requires_grad = keyword in name


def lora_parameters(model):
    return [p for m in model.modules() if isinstance(m, LoRALinear) for p in (m.down, m.up)]
