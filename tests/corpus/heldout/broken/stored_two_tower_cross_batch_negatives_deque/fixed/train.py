"""Two-tower retrieval model (user tower, item tower) trained with in-batch softmax plus
cross-batch negatives: item embeddings of the last few batches are kept in a bounded deque
and added to the candidate set of the next batch."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, BATCH, TAU = 50, 80, 16, 12, 0.1
torch.manual_seed(0)


class Tower(nn.Module):
    def __init__(self, n_ids, dim):
        super().__init__()
        self.embedding = nn.Embedding(n_ids, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return F.normalize(self.mlp(self.embedding(ids)), dim=-1)


class CrossBatchNegatives:
    def __init__(self, max_batches):
        self.bank = deque(maxlen=max_batches)

    def push(self, item_emb):
        self.bank.append(item_emb.detach())

    def candidates(self, item_emb):
        return torch.cat([item_emb, *self.bank]) if self.bank else item_emb


def sample_interactions(n):
    users = torch.randint(0, N_USERS, (n,))
    items = (users * 7 + torch.randint(0, 3, (n,))) % N_ITEMS  # each user likes a few items
    return users, items


user_tower, item_tower = Tower(N_USERS, DIM), Tower(N_ITEMS, DIM)
optimizer = torch.optim.Adam([*user_tower.parameters(), *item_tower.parameters()], lr=1e-2)
memory = CrossBatchNegatives(max_batches=3)

for step in range(6):
    users, items = sample_interactions(BATCH)
    u = user_tower(users)
    v = item_tower(items)
    logits = u @ memory.candidates(v).T / TAU
    loss = F.cross_entropy(logits, torch.arange(BATCH))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    memory.push(v)
    hit = (logits.argmax(1) == torch.arange(BATCH)).float().mean().item()
    print(f"step {step} loss {loss.item():.4f} candidates {logits.size(1)} hit@1 {hit:.2f}")
