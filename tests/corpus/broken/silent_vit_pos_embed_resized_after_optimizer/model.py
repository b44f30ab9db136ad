"""A very small ViT for 3-class texture patches: conv patch embedding, a learned
positional embedding, two pre-norm encoder layers and a linear head on the mean token."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyViT(nn.Module):
    def __init__(self, img_size=16, patch=4, dim=32, depth=2, heads=4, n_classes=3):
        super().__init__()
        self.patch = patch
        self.img_size = img_size
        self.patch_embed = nn.Conv2d(1, dim, kernel_size=patch, stride=patch)
        self.pos_embed = nn.Parameter(0.02 * torch.randn(1, (img_size // patch) ** 2, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, dim_feedforward=2 * dim, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def set_image_size(self, img_size):
        """Fine-tune at a new resolution: resample the positional grid bicubically."""
        old = int(math.sqrt(self.pos_embed.shape[1]))
        new = img_size // self.patch
        grid = self.pos_embed.data.reshape(1, old, old, -1).permute(0, 3, 1, 2)
        grid = F.interpolate(grid, size=(new, new), mode="bicubic", align_corners=False)
        self.pos_embed = nn.Parameter(grid.permute(0, 2, 3, 1).reshape(1, new * new, -1))
        self.img_size = img_size

    def forward(self, images):
        tokens = self.patch_embed(images).flatten(2).transpose(1, 2)
        tokens = self.encoder(tokens + self.pos_embed)
        return self.head(self.norm(tokens).mean(dim=1))
