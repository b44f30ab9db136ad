"""Top-2 mixture-of-experts feed-forward layer with a load-balancing auxiliary loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Top2MoE(nn.Module):
    def __init__(self, dim, n_experts=4, hidden=32):
        super().__init__()
        self.n_experts = n_experts
        self.router = nn.Linear(dim, n_experts)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))
            for _ in range(n_experts))

    def forward(self, x):
        probs = F.softmax(self.router(x), dim=-1)
        top_w, top_idx = probs.topk(2, dim=-1)
        top_w = top_w / top_w.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(x)
        counts = torch.zeros(self.n_experts, dtype=torch.long)
        for e, expert in enumerate(self.experts):
            token, slot = (top_idx == e).nonzero(as_tuple=True)
            counts[e] = token.numel()
            if token.numel() > 0:
                out = out.index_add(0, token, top_w[token, slot, None] * expert(x[token]))
        load = F.one_hot(top_idx[:, 0], self.n_experts).float().mean(0)
        aux = self.n_experts * (load * probs.mean(0)).sum()
        return out, aux, counts
