"""Sparse mixture-of-experts layer for tabular regression: a softmax router keeps the
top-k experts per row and renormalises their weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TopKRouter(nn.Module):
    def __init__(self, dim, n_experts, k=2):
        super().__init__()
        self.k = k
        self.proj = nn.Linear(dim, n_experts)

    def forward(self, x):
        probs = torch.softmax(self.proj(x), dim=-1)
        top = probs.topk(self.k, dim=-1).indices
        keep = torch.zeros_like(probs, dtype=torch.bool).scatter_(-1, top, True)
        probs = probs.masked_fill(~keep, 0.0)
        return probs / probs.sum(dim=-1, keepdim=True)


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MixtureOfExperts(nn.Module):
    def __init__(self, dim, n_experts=4, hidden=16, k=2):
        super().__init__()
        self.router = TopKRouter(dim, n_experts, k)
        self.experts = nn.ModuleList(Expert(dim, hidden) for _ in range(n_experts))

    def forward(self, x):
        gates = self.router(x)
        outputs = torch.cat([expert(x) for expert in self.experts], dim=-1)
        return (gates * outputs).sum(dim=-1), gates

    @staticmethod
    def load_balance_loss(gates):
        usage = gates.mean(dim=0)
        return (usage * usage).sum() * gates.size(-1)
