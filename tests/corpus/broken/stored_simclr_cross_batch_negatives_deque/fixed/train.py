"""SimCLR-style contrastive pretraining on small feature vectors. To get more negatives than
the batch holds, projections of the last few batches are kept in a bounded deque."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, PROJ_DIM, BATCH, BANK_BATCHES, TEMP = 12, 8, 8, 3, 0.2


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, 16))
        self.projector = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, PROJ_DIM))

    def forward(self, x):
        return F.normalize(self.projector(self.backbone(x)), dim=-1)


def augment(x):
    mask = (torch.rand_like(x) > 0.2).float()
    return x * mask + 0.05 * torch.randn_like(x)


def info_nce(q, k, extra_negatives):
    candidates = torch.cat([k] + list(extra_negatives), 0)
    logits = q @ candidates.t() / TEMP
    return F.cross_entropy(logits, torch.arange(q.size(0)))


def train(steps=5):
    torch.manual_seed(0)
    model = Encoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    bank = deque(maxlen=BANK_BATCHES)
    data = torch.randn(steps * BATCH, IN_DIM)
    for step in range(steps):
        x = data[step * BATCH:(step + 1) * BATCH]
        z1, z2 = model(augment(x)), model(augment(x))
        loss = 0.5 * (info_nce(z1, z2, bank) + info_nce(z2, z1, bank))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        bank.append(z2.detach())
        print(f"step {step}: loss {loss.item():.4f} negatives {BATCH * (1 + len(bank)) - 1}")


if __name__ == "__main__":
    train()
