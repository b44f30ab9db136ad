"""LoRA fine-tuning of a frozen 'pretrained' MLP-Mixer image classifier with reentrant
activation checkpointing and gradient accumulation.

The frozen stem's output does not require grad, which would leave reentrant-checkpointed
blocks without gradients; a forward hook on the stem marks its output as requiring grad
(what `enable_input_require_grads()` does in transformers)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

TOKENS, DIM, N_CLASSES = 16, 24, 3


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.randn(rank, base.in_features) / math.sqrt(base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.lora_a.T) @ self.lora_b.T


class MixerBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(DIM)
        self.token_mix = nn.Linear(TOKENS, TOKENS)
        self.fc1, self.fc2 = nn.Linear(DIM, 2 * DIM), nn.Linear(2 * DIM, DIM)

    def forward(self, x):
        x = x + self.token_mix(self.norm(x).transpose(1, 2)).transpose(1, 2)
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class Mixer(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.stem = nn.Conv2d(1, DIM, 4, stride=4)
        self.blocks = nn.ModuleList(MixerBlock() for _ in range(depth))
        self.head = nn.Linear(DIM, N_CLASSES)

    def forward(self, img):
        x = self.stem(img).flatten(2).transpose(1, 2)
        for blk in self.blocks:
            x = checkpoint(blk, x, use_reentrant=True)
        return self.head(x.mean(1))


def add_lora(model):
    for p in model.parameters():
        p.requires_grad_(False)
    for blk in model.blocks:
        blk.fc1, blk.fc2 = LoRALinear(blk.fc1), LoRALinear(blk.fc2)
    model.head.weight.requires_grad_(True)
    model.head.bias.requires_grad_(True)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(12)
    model = Mixer()
    add_lora(model)
    model.stem.register_forward_hook(lambda module, inputs, output: output.requires_grad_(True))
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=5e-3, weight_decay=0.0)
    protos = torch.randn(N_CLASSES, 1, 16, 16, generator=gen)
    accum = 2
    for step in range(4):
        optimizer.zero_grad()
        total = 0.0
        for _ in range(accum):
            y = torch.randint(0, N_CLASSES, (12,), generator=gen)
            x = protos[y] + 0.7 * torch.randn(12, 1, 16, 16, generator=gen)
            loss = F.cross_entropy(model(x), y) / accum
            loss.backward()
            total += loss.item()
        lora_norm = sum(p.grad.norm().item() for n, p in model.named_parameters() if "lora_b" in n)
        optimizer.step()
        print(f"step {step}  loss {total:.4f}  lora_b grad norm {lora_norm:.4f}")
    checksum = sum(p.double().sum().item() for p in params)
    print(f"trainable checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
