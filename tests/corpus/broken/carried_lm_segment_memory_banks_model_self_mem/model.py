"""A small segment-recurrent language model: every layer remembers the outputs it produced
for the previous segment and attends over [memory; current segment]."""
import torch
import torch.nn as nn


class MemoryLayer(nn.Module):
    def __init__(self, d_model, n_heads, mem_len):
        super().__init__()
        self.mem_len = mem_len
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model))
        self.norm2 = nn.LayerNorm(d_model)
        self.mem = None

    def reset_memory(self):
        self.mem = None

    def forward(self, x):
        seg = x.size(1)
        context = x if self.mem is None else torch.cat([self.mem, x], dim=1)
        n_mem = context.size(1) - seg
        future = torch.triu(torch.ones(seg, seg, dtype=torch.bool), diagonal=1)
        mask = torch.cat([torch.zeros(seg, n_mem, dtype=torch.bool), future], dim=1)
        h = self.norm1(x + self.attn(x, context, context, attn_mask=mask, need_weights=False)[0])
        out = self.norm2(h + self.ff(h))
        self.mem = out[:, -self.mem_len:]
        return out


class SegmentLM(nn.Module):
    def __init__(self, vocab, d_model=16, n_heads=2, n_layers=2, mem_len=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList(MemoryLayer(d_model, n_heads, mem_len) for _ in range(n_layers))
        self.lm_head = nn.Linear(d_model, vocab)

    def reset_memory(self):
        for layer in self.layers:
            layer.reset_memory()

    def forward(self, tokens):
        h = self.embed(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h)
