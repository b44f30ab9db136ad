"""Token-level regression through a top-2 MoE layer; every expert receives tokens in every
step (64 tokens, 4 experts, two experts per token)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from moe import Top2MoE

torch.manual_seed(0)
DIM, TOKENS = 8, 64


class MoEModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(4, DIM)
        self.moe = Top2MoE(DIM)
        self.out = nn.Linear(DIM, 1)

    def forward(self, x):
        h = self.embed(x)
        y, aux, counts = self.moe(F.layer_norm(h, (DIM,)))
        return self.out(h + y).squeeze(-1), aux, counts


model = MoEModel()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(6):
    x = torch.randn(TOKENS, 4)
    target = torch.sin(x[:, 0]) + x[:, 1] * x[:, 2]
    pred, aux, counts = model(x)
    loss = F.mse_loss(pred, target) + 0.01 * aux
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.6f} tokens per expert {counts.tolist()}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
