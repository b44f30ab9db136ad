"""Pre-norm transformer blocks with sigmoid attention (softmax replaced by an elementwise
sigmoid with a -log(n) bias, as in "Theory, Analysis, and Best Practices for Sigmoid
Self-Attention")."""
import math

import torch
import torch.nn as nn


class SigmoidSelfAttention(nn.Module):
    def __init__(self, dim, heads, attn_dropout=0.1):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        # attention maps are the largest activations here: drop them in place
        self.attn_drop = nn.Dropout(attn_dropout, inplace=True)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        attn = torch.sigmoid(scores - math.log(n))
        attn = self.attn_drop(attn)
        out = (attn @ v).transpose(1, 2).reshape(b, n, d)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, heads, mlp_ratio=2):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = SigmoidSelfAttention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_ratio * dim), nn.GELU(),
                                 nn.Linear(mlp_ratio * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))
