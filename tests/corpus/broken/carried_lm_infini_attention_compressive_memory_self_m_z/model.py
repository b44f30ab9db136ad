"""A tiny decoder with Infini-attention: local causal softmax attention inside a segment plus a
compressive linear-attention memory (M, z) that accumulates every previous segment."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def elu1(x):
    return F.elu(x) + 1.0


class InfiniAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.gate = nn.Parameter(torch.zeros(n_heads, 1, 1))
        self.M = None
        self.z = None

    def reset_memory(self):
        self.M, self.z = None, None

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        if self.M is None:
            self.M = x.new_zeros(B, self.h, self.dk, self.dk)
            self.z = x.new_zeros(B, self.h, self.dk, 1)
        sq, sk = elu1(q), elu1(k)
        from_memory = (sq @ self.M) / (sq @ self.z + 1e-6)
        local = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        g = torch.sigmoid(self.gate)
        mixed = g * from_memory + (1 - g) * local
        self.M = self.M + sk.transpose(-2, -1) @ v
        self.z = self.z + sk.sum(dim=-2).unsqueeze(-1)
        return self.out(mixed.transpose(1, 2).reshape(B, T, -1))


class InfiniBlockLM(nn.Module):
    def __init__(self, vocab, d_model=32, n_heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = InfiniAttention(d_model, n_heads)
        self.ffn = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(),
                                 nn.Linear(4 * d_model, d_model))
        self.lm_head = nn.Linear(d_model, vocab)

    def reset_memory(self):
        self.attn.reset_memory()

    def forward(self, tokens):
        x = self.embed(tokens)
        x = x + self.attn(self.ln1(x))
        x = x + self.ffn(self.ln2(x))
        return self.lm_head(x)
