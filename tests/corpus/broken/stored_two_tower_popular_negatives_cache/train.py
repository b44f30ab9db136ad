"""Two-tower retrieval model trained with sampled softmax. Besides the positive item, every
user is scored against a cached set of popular items used as hard negatives; the cache is
refreshed from the item table every few steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, BATCH, N_POPULAR = 30, 60, 8, 16, 10


class TwoTowerTrainer:
    def __init__(self, refresh_every=3):
        self.user_tower = nn.Sequential(nn.Embedding(N_USERS, DIM), nn.Linear(DIM, DIM))
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        params = list(self.user_tower.parameters()) + list(self.item_emb.parameters())
        self.optimizer = torch.optim.Adagrad(params, lr=0.1)
        self.refresh_every = refresh_every
        self.popular = torch.arange(N_POPULAR)
        self.neg_cache = None

    def refresh_negatives(self):
        self.neg_cache = F.normalize(self.item_emb(self.popular), dim=-1)

    def train_step(self, step, users, items):
        if step % self.refresh_every == 0:
            self.refresh_negatives()
        u = F.normalize(self.user_tower(users), dim=-1)
        pos = F.normalize(self.item_emb(items), dim=-1)
        logits = torch.cat([(u * pos).sum(-1, keepdim=True), u @ self.neg_cache.t()], 1) / 0.1
        loss = F.cross_entropy(logits, torch.zeros(users.size(0), dtype=torch.long))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def interactions(n):
    users = torch.randint(0, N_USERS, (n,))
    items = (users * 7 + torch.randint(0, 3, (n,))) % (N_ITEMS - N_POPULAR) + N_POPULAR
    return users, items


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = TwoTowerTrainer()
    for step in range(6):
        print(f"step {step}: loss {trainer.train_step(step, *interactions(BATCH)):.4f}")
