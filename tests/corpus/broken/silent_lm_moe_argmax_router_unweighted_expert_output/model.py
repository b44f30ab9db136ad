"""A one-block decoder-only language model whose feed-forward layer is a Switch-style
mixture of experts: every token is routed to a single expert chosen by a learned router."""
import torch
import torch.nn as nn


class Top1MoE(nn.Module):
    def __init__(self, d_model, d_ff, n_experts):
        super().__init__()
        self.n_experts = n_experts
        self.router = nn.Linear(d_model, n_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
            for _ in range(n_experts))
        self.last_load = None

    def forward(self, x):
        flat = x.reshape(-1, x.size(-1))
        router_logits = self.router(flat)
        expert_idx = router_logits.argmax(dim=-1)
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            routed = expert_idx == e
            if routed.any():
                out[routed] = expert(flat[routed])
        self.last_load = torch.bincount(expert_idx, minlength=self.n_experts) / len(flat)
        return out.view_as(x)


class MoEBlockLM(nn.Module):
    def __init__(self, vocab, d_model=32, n_heads=4, n_experts=4, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(0.02 * torch.randn(max_len, d_model))
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.ln2 = nn.LayerNorm(d_model)
        self.moe = Top1MoE(d_model, 2 * d_model, n_experts)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, tokens):
        t = tokens.size(1)
        h = self.tok(tokens) + self.pos[:t]
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        a = self.ln1(h)
        h = h + self.attn(a, a, a, attn_mask=causal, need_weights=False)[0]
        h = h + self.moe(self.ln2(h))
        return self.lm_head(h)
