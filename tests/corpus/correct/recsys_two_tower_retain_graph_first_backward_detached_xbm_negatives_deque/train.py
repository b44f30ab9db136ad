"""Two-tower retrieval model with a cross-batch memory (XBM) of item embeddings used as
extra negatives, plus an auxiliary category-prediction loss on the item tower. The two
losses are backwarded separately (to log per-loss gradient norms of the shared item
tower) with retain_graph=True on the first; one optimizer step follows."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, N_CATS, DIM, BATCH = 60, 90, 6, 16, 24


class Tower(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.emb = nn.Embedding(n, 32)
        self.mlp = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, DIM))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


def grad_norm(module):
    return sum(p.grad.norm() ** 2 for p in module.parameters() if p.grad is not None) ** 0.5


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    user_tower, item_tower = Tower(N_USERS), Tower(N_ITEMS)
    cat_head = nn.Linear(DIM, N_CATS)
    params = [*user_tower.parameters(), *item_tower.parameters(), *cat_head.parameters()]
    optimizer = torch.optim.Adam(params, lr=3e-3)
    item_cat = torch.randint(0, N_CATS, (N_ITEMS,), generator=gen)
    user_cat = torch.randint(0, N_CATS, (N_USERS,), generator=gen)
    memory = deque(maxlen=3)

    for step in range(7):
        users = torch.randint(0, N_USERS, (BATCH,), generator=gen)
        pool = torch.randperm(N_ITEMS, generator=gen)
        items = torch.stack([pool[(item_cat[pool] == user_cat[u]).nonzero()[0, 0]] for u in users])
        u_vec, i_vec = user_tower(users), item_tower(items)

        negatives = torch.cat([i_vec, *memory]) if memory else i_vec
        logits = u_vec @ negatives.t() / 0.1
        retrieval_loss = F.cross_entropy(logits, torch.arange(BATCH))
        aux_loss = F.cross_entropy(cat_head(i_vec), item_cat[items])

        optimizer.zero_grad()
        retrieval_loss.backward(retain_graph=True)
        g_retrieval = grad_norm(item_tower).item()
        aux_loss.backward()
        g_total = grad_norm(item_tower).item()
        optimizer.step()
        memory.append(i_vec.detach())

        print(f"step {step} retrieval {retrieval_loss.item():.4f} aux {aux_loss.item():.4f} "
              f"item-tower grad {g_retrieval:.4f}->{g_total:.4f} memory {len(memory)}")
    print(f"checksum {sum(p.sum().item() for p in params):.6f}")


if __name__ == "__main__":
    main()
