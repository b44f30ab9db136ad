"""A small ViT image encoder with bottleneck adapters for parameter-efficient tuning.
Gradient checkpointing can be switched on per model, like `gradient_checkpointing_enable()`."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Adapter(nn.Module):
    def __init__(self, dim, bottleneck=8):
        super().__init__()
        self.down = nn.Linear(dim, bottleneck)
        self.up = nn.Linear(bottleneck, dim)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(torch.relu(self.down(x)))


class EncoderBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.adapter = Adapter(dim)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return self.adapter(x + self.mlp(self.norm2(x)))


class ViTEncoder(nn.Module):
    def __init__(self, img=16, patch=4, dim=32, depth=3):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.pos = nn.Parameter(0.02 * torch.randn(1, (img // patch) ** 2, dim))
        self.blocks = nn.ModuleList(EncoderBlock(dim) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.gradient_checkpointing = False

    def gradient_checkpointing_enable(self):
        self.gradient_checkpointing = True

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2) + self.pos
        for block in self.blocks:
            if self.gradient_checkpointing and self.training:
                x = checkpoint(block, x, use_reentrant=False)
            else:
                x = block(x)
        return nn.functional.normalize(self.norm(x).mean(dim=1), dim=-1)
