"""Candidate retrieval for a catalogue of 200 items: in-batch softmax over the positives,
plus hard negatives mined from a cache of recently seen item vectors."""
import torch
import torch.nn.functional as F

from towers import TwoTower

torch.manual_seed(0)
N_USERS, N_ITEMS, TEMP = 50, 200, 0.1


def interactions(n):
    users = torch.randint(0, N_USERS, (n,))
    items = (users * 4 + torch.randint(0, 4, (n,))) % N_ITEMS
    return users, items


class HardNegativeTrainer:
    def __init__(self, model, cache_size=96, n_hard=4):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
        self.cache_size = cache_size
        self.n_hard = n_hard
        self.item_cache = torch.empty(0, 8)
        self.cache_ids = torch.empty(0, dtype=torch.long)

    def mine_hard_negatives(self, user_vecs, pos_items):
        with torch.no_grad():
            sims = user_vecs @ self.item_cache.t()
            sims[self.cache_ids.unsqueeze(0) == pos_items.unsqueeze(1)] = -1e4
            top = sims.topk(self.n_hard, dim=1).indices
        return self.cache_ids[top]

    def step(self, users, items):
        user_vecs = self.model.user_tower(users)
        item_vecs = self.model.item_tower(items)
        logits = user_vecs @ item_vecs.t() / TEMP
        loss = F.cross_entropy(logits, torch.arange(len(users)))
        if len(self.cache_ids) >= self.n_hard:
            hard_ids = self.mine_hard_negatives(user_vecs, items)
            hard_vecs = self.model.item_tower(hard_ids)
            pos = (user_vecs * item_vecs).sum(-1, keepdim=True)
            neg = torch.einsum("bd,bkd->bk", user_vecs, hard_vecs)
            hard_logits = torch.cat([pos, neg], dim=1) / TEMP
            loss = loss + F.cross_entropy(hard_logits, torch.zeros(len(users), dtype=torch.long))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.item_cache = torch.cat([self.item_cache, item_vecs])[-self.cache_size:]
        self.cache_ids = torch.cat([self.cache_ids, items])[-self.cache_size:]
        return loss.item()


def main(epochs=2, batches=4):
    trainer = HardNegativeTrainer(TwoTower(N_USERS, N_ITEMS))
    for epoch in range(epochs):
        for _ in range(batches):
            loss = trainer.step(*interactions(32))
        print(f"epoch {epoch} loss {loss:.4f} cache {len(trainer.cache_ids)}")


if __name__ == "__main__":
    main()
