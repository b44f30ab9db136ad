"""Mixture-of-experts layer with top-1 routing over 4 experts. Batches are small, so in
most steps at least one expert receives no tokens (and no gradient in that step)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)
DIM, N_EXPERTS, TOKENS = 8, 4, 3


class Top1MoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(DIM, N_EXPERTS)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(DIM, 16), nn.ReLU(), nn.Linear(16, DIM))
            for _ in range(N_EXPERTS))

    def forward(self, x):
        probs = F.softmax(self.gate(x), dim=-1)
        weight, index = probs.max(dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            mask = index == e
            if mask.any():
                out[mask] = weight[mask, None] * expert(x[mask])
        # switch-style load-balancing loss
        frac = F.one_hot(index, N_EXPERTS).float().mean(0)
        balance = N_EXPERTS * (frac * probs.mean(0)).sum()
        return out, balance, torch.bincount(index, minlength=N_EXPERTS)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(4, DIM)
        self.moe = Top1MoE()
        self.out = nn.Linear(DIM, 1)

    def forward(self, x):
        h = self.inp(x)
        y, balance, counts = self.moe(h)
        return self.out(h + y).squeeze(-1), balance, counts


model = Model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
seen = torch.zeros(N_EXPERTS, dtype=torch.long)
for step in range(8):
    x = torch.randn(TOKENS, 4) * (1 + step % 4)
    target = x.sum(-1)
    pred, balance, counts = model(x)
    loss = F.mse_loss(pred, target) + 0.01 * balance
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    seen += counts
    print(f"step {step} loss {loss.item():.6f} tokens per expert {counts.tolist()}")
print(f"tokens seen per expert {seen.tolist()}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
