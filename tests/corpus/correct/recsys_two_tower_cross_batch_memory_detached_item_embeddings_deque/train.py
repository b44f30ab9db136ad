"""Two-tower retrieval with a cross-batch memory (XBM): item embeddings from recent batches
are kept in a deque and used as extra negatives in the in-batch softmax.  The memory holds
detached copies, enqueued under no_grad after the optimizer step, so the loss only
backpropagates into the current batch."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM = 40, 60, 16


class Tower(nn.Module):
    def __init__(self, n_ids, n_feats):
        super().__init__()
        self.ids = nn.Embedding(n_ids, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM + n_feats, 32), nn.ReLU(), nn.Linear(32, DIM))

    def forward(self, ids, feats):
        return F.normalize(self.mlp(torch.cat([self.ids(ids), feats], -1)), dim=-1)


class CrossBatchMemory:
    def __init__(self, max_batches):
        self.embeddings = deque(maxlen=max_batches)
        self.item_ids = deque(maxlen=max_batches)

    @torch.no_grad()
    def enqueue(self, item_emb, item_ids):
        self.embeddings.append(item_emb.detach().clone())
        self.item_ids.append(item_ids.clone())

    def negatives(self):
        if not self.embeddings:
            return None, None
        return torch.cat(list(self.embeddings)), torch.cat(list(self.item_ids))


def retrieval_loss(user_emb, item_emb, item_ids, memory, temperature=0.1):
    logits = user_emb @ item_emb.t() / temperature
    mem_emb, mem_ids = memory.negatives()
    if mem_emb is not None:
        mem_logits = user_emb @ mem_emb.t() / temperature
        collide = item_ids[:, None] == mem_ids[None, :]
        logits = torch.cat([logits, mem_logits.masked_fill(collide, float("-inf"))], dim=1)
    return F.cross_entropy(logits, torch.arange(len(user_emb)))


def interactions(batch):
    users = torch.randint(0, N_USERS, (batch,))
    items = (users * 7 + torch.randint(0, 3, (batch,))) % N_ITEMS
    user_feats = torch.stack([users.float() / N_USERS, (users % 5).float() / 5], -1)
    item_feats = torch.stack([items.float() / N_ITEMS, (items % 4).float() / 4, torch.rand(batch)], -1)
    return users, user_feats, items, item_feats


def main(steps=6, batch=16):
    torch.manual_seed(0)
    user_tower, item_tower = Tower(N_USERS, 2), Tower(N_ITEMS, 3)
    params = list(user_tower.parameters()) + list(item_tower.parameters())
    optimizer = torch.optim.Adam(params, lr=3e-3)
    memory = CrossBatchMemory(max_batches=3)
    for step in range(steps):
        users, user_feats, items, item_feats = interactions(batch)
        user_emb = user_tower(users, user_feats)
        item_emb = item_tower(items, item_feats)
        loss = retrieval_loss(user_emb, item_emb, items, memory)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        memory.enqueue(item_emb, items)
        n_neg = sum(len(e) for e in memory.embeddings)
        print(f"step {step}: loss {loss.item():.4f} memory {n_neg}")
    checksum = sum(p.detach().sum().item() for p in params)
    print(f"parameter checksum {checksum:.4f}")
    return user_tower, item_tower


if __name__ == "__main__":
    main()
