"""A LeViT-style tiny vision transformer: attention gets a learned bias per head that only
depends on the (|dy|, |dx|) offset between two patches, gathered from a small table."""
import itertools

import torch
import torch.nn as nn


class BiasedAttention(nn.Module):
    def __init__(self, dim, heads, resolution):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        points = list(itertools.product(range(resolution), range(resolution)))
        offsets, idxs = {}, []
        for p1 in points:
            for p2 in points:
                off = (abs(p1[0] - p2[0]), abs(p1[1] - p2[1]))
                idxs.append(offsets.setdefault(off, len(offsets)))
        self.attention_biases = nn.Parameter(torch.zeros(heads, len(offsets)))
        self.register_buffer("attention_bias_idxs",
                             torch.tensor(idxs).view(len(points), len(points)), persistent=False)

    def get_attention_biases(self):
        # the table is trained: gather from its current values on every forward
        return self.attention_biases[:, self.attention_bias_idxs]

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale + self.get_attention_biases()
        out = attn.softmax(dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(b, n, d))


class TinyLeViT(nn.Module):
    def __init__(self, n_classes, dim=16, heads=2, resolution=4):
        super().__init__()
        self.patch = nn.Conv2d(1, dim, kernel_size=2, stride=2)
        self.attn = BiasedAttention(dim, heads, resolution)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.head = nn.Linear(dim, n_classes)

    def forward(self, images):
        x = self.patch(images).flatten(2).transpose(1, 2)
        x = x + self.attn(x)
        x = x + self.mlp(x)
        return self.head(x.mean(dim=1))
