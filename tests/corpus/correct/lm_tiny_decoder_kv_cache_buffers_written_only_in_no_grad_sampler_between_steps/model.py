"""Small decoder-only LM with rotary position embeddings and a key/value cache.

Training calls forward(tokens) and never touches the cache; generation calls
forward(tokens, start_pos=...) under no_grad, which writes the new keys and values into
the cache buffers in place and attends over everything cached so far."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rotary_tables(head_dim, max_len, base=10000.0):
    inv = 1.0 / base ** (torch.arange(0, head_dim, 2).float() / head_dim)
    angles = torch.outer(torch.arange(max_len).float(), inv)
    return angles.cos(), angles.sin()


def apply_rotary(x, cos, sin):
    x1, x2 = x[..., 0::2], x[..., 1::2]
    cos, sin = cos[None, :, None, :], sin[None, :, None, :]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


class CachedSelfAttention(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_len):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        shape = (max_batch, max_len, n_heads, self.head_dim)
        self.register_buffer("cache_k", torch.zeros(shape), persistent=False)
        self.register_buffer("cache_v", torch.zeros(shape), persistent=False)

    def forward(self, x, cos, sin, start_pos=None):
        bsz, seqlen, dim = x.shape
        q, k, v = self.qkv(x).view(bsz, seqlen, 3, self.n_heads, self.head_dim).unbind(2)
        offset = 0 if start_pos is None else start_pos
        q = apply_rotary(q, cos[offset:offset + seqlen], sin[offset:offset + seqlen])
        k = apply_rotary(k, cos[offset:offset + seqlen], sin[offset:offset + seqlen])
        if start_pos is not None:
            assert not torch.is_grad_enabled(), "the cache is for generation only"
            self.cache_k[:bsz, start_pos:start_pos + seqlen] = k
            self.cache_v[:bsz, start_pos:start_pos + seqlen] = v
            k = self.cache_k[:bsz, :start_pos + seqlen]
            v = self.cache_v[:bsz, :start_pos + seqlen]
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        scores = q @ k.transpose(2, 3) / math.sqrt(self.head_dim)
        if seqlen > 1:
            causal = torch.full((seqlen, seqlen), float("-inf")).triu(1)
            scores = scores + torch.cat([torch.zeros(seqlen, offset), causal], dim=1)
        att = F.softmax(scores, dim=-1) @ v
        return self.out(att.transpose(1, 2).reshape(bsz, seqlen, dim))


class Block(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_len):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = CachedSelfAttention(dim, n_heads, max_batch, max_len)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, cos, sin, start_pos=None):
        x = x + self.attn(self.ln1(x), cos, sin, start_pos)
        return x + self.mlp(self.ln2(x))


class TinyDecoder(nn.Module):
    def __init__(self, vocab=16, dim=32, n_heads=4, n_layers=2, max_batch=4, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(
            [Block(dim, n_heads, max_batch, max_len) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        cos, sin = rotary_tables(dim // n_heads, max_len)
        self.register_buffer("rope_cos", cos, persistent=False)
        self.register_buffer("rope_sin", sin, persistent=False)

    def forward(self, tokens, start_pos=None):
        h = self.embed(tokens)
        for block in self.blocks:
            h = block(h, self.rope_cos, self.rope_sin, start_pos)
        return self.head(self.ln_f(h))
