"""Minimal LoRA: wrap selected nn.Linear layers with a frozen base plus a trainable
low-rank update (B @ A, B initialised to zero so training starts from the base model)."""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.randn(rank, base.in_features) / base.in_features ** 0.5)
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scaling = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.lora_a.t() @ self.lora_b.t()) * self.scaling


def add_lora(model, targets=("q_proj", "v_proj"), rank=4):
    """Freeze every base weight and put adapters on the target projections, in place."""
    model.requires_grad_(False)
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in targets and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, rank))
    return model
