"""Hand-written LoRA for the GPT-style model: wrap chosen linear layers, merge the low-rank
update into the frozen weight for fast evaluation, and unmerge it again before training."""
import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.empty(rank, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / rank
        self.merged = False

    def delta_weight(self):
        return self.scaling * self.lora_B @ self.lora_A

    def forward(self, x):
        out = self.base(x)
        if self.merged:
            return out
        return out + self.scaling * (x @ self.lora_A.t()) @ self.lora_B.t()

    @torch.no_grad()
    def merge(self):
        if not self.merged:
            self.base.weight += self.delta_weight()
            self.merged = True

    @torch.no_grad()
    def unmerge(self):
        if self.merged:
            self.base.weight -= self.delta_weight()
            self.merged = False


def add_lora(model, names, **kwargs):
    """Freeze the pretrained model, then wrap every nn.Linear whose attribute name is in names."""
    model.requires_grad_(False)
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in names and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, **kwargs))
    return [m for m in model.modules() if isinstance(m, LoRALinear)]


def optimizer_in_backward(params, lr):
    """One AdamW per adapter tensor, stepped from a post-accumulate-grad hook as soon as that
    tensor's gradient is complete, and the gradient freed right away (saves the .grad memory of
    a separate optimizer pass)."""
    optimizers = {p: torch.optim.AdamW([p], lr=lr, weight_decay=0.0) for p in params}

    def step_now(param):
        optimizers[param].step()
        optimizers[param].zero_grad(set_to_none=True)

    for p in params:
        p.register_post_accumulate_grad_hook(step_now)
    return optimizers
