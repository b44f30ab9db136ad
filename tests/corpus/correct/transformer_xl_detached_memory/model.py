"""A two-layer Transformer-XL style language model with segment-level recurrence."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemAttentionLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q = nn.Linear(d_model, d_model)
        self.kv = nn.Linear(d_model, 2 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model))
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, mem):
        b, t, d = x.shape
        context = x if mem is None else torch.cat([mem, x], dim=1)
        q = self.q(x).view(b, t, self.n_heads, -1).transpose(1, 2)
        k, v = self.kv(context).chunk(2, dim=-1)
        k = k.view(b, context.shape[1], self.n_heads, -1).transpose(1, 2)
        v = v.view(b, context.shape[1], self.n_heads, -1).transpose(1, 2)
        m = context.shape[1] - t
        mask = torch.ones(t, context.shape[1], dtype=torch.bool).tril(diagonal=m)
        attn = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = self.norm1(x + self.out(attn.transpose(1, 2).reshape(b, t, d)))
        return self.norm2(x + self.ff(x))


class TransformerXL(nn.Module):
    def __init__(self, vocab, d_model=32, n_heads=4, n_layers=2, mem_len=8):
        super().__init__()
        self.mem_len = mem_len
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList(MemAttentionLayer(d_model, n_heads) for _ in range(n_layers))
        self.head = nn.Linear(d_model, vocab)

    def forward(self, tokens, mems=None):
        h = self.embed(tokens)
        mems = mems or [None] * len(self.layers)
        new_mems = []
        for layer, mem in zip(self.layers, mems):
            prev = h if mem is None else torch.cat([mem, h], dim=1)
            # the cache for the next segment is a constant: no gradient flows across segments
            new_mems.append(prev[:, -self.mem_len:].detach())
            h = layer(h, mem)
        return self.head(h), new_mems
