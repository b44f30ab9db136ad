"""Two-tower retrieval model with an auxiliary CTR head. The user tower runs under
non-reentrant activation checkpointing; the trainer backwards the two losses one after
the other (the first with retain_graph=True) to log how much of the user tower's
gradient each loss contributes, and keeps the last batch's positive item vectors,
detached, as extra negatives."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

HIST_LEN, N_ITEMS, DIM, BATCH, CACHE, TEMP, CTR_W = 6, 50, 16, 16, 16, 0.1, 0.5


class UserTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.history = nn.EmbeddingBag(N_ITEMS, DIM, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(DIM, 32), nn.GELU(), nn.Linear(32, DIM))

    def forward(self, hist):
        return F.normalize(self.mlp(self.history(hist)), dim=1)


class ItemTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_ITEMS, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, DIM), nn.GELU(), nn.Linear(DIM, DIM))

    def forward(self, items):
        return F.normalize(self.mlp(self.embed(items)), dim=1)


def make_batch(g):
    """Users like one 'genre' (10 consecutive ids); the positive is from that genre."""
    genre = torch.randint(0, 5, (BATCH, 1), generator=g) * 10
    hist = genre + torch.randint(0, 10, (BATCH, HIST_LEN), generator=g)
    pos = genre.squeeze(1) + torch.randint(0, 10, (BATCH,), generator=g)
    shown = torch.randint(0, N_ITEMS, (BATCH,), generator=g)
    clicked = ((shown // 10) == genre.squeeze(1)).float()
    return hist, pos, shown, clicked


class Trainer:
    def __init__(self):
        self.user_tower, self.item_tower = UserTower(), ItemTower()
        self.ctr_head = nn.Linear(DIM, 1)
        params = [*self.user_tower.parameters(), *self.item_tower.parameters(),
                  *self.ctr_head.parameters()]
        self.optimizer = torch.optim.Adam(params, lr=5e-3)
        self.neg_cache = None

    def user_grad_norm(self):
        return torch.norm(torch.stack([p.grad.norm() for p in self.user_tower.parameters()
                                       if p.grad is not None])).item()

    def step(self, hist, pos, shown, clicked):
        users = checkpoint(self.user_tower, hist, use_reentrant=False)
        pos_vecs = self.item_tower(pos)
        candidates = pos_vecs if self.neg_cache is None else torch.cat([pos_vecs, self.neg_cache])
        retrieval = F.cross_entropy(users @ candidates.t() / TEMP, torch.arange(BATCH))
        ctr_logits = self.ctr_head(users * self.item_tower(shown)).squeeze(1)
        ctr = F.binary_cross_entropy_with_logits(ctr_logits, clicked)

        self.optimizer.zero_grad()
        retrieval.backward(retain_graph=True)  # `users` is needed again by the CTR loss
        g_retrieval = self.user_grad_norm()
        (CTR_W * ctr).backward()
        g_total = self.user_grad_norm()
        self.optimizer.step()

        self.neg_cache = pos_vecs.detach()[:CACHE]
        return retrieval.item(), ctr.item(), g_retrieval, g_total


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
trainer = Trainer()
for epoch in range(2):
    for it in range(3):
        r, c, g_r, g_t = trainer.step(*make_batch(g))
        print(f"epoch {epoch} it {it}: retrieval {r:.4f} ctr {c:.4f} "
              f"|g_user| retrieval {g_r:.4f} total {g_t:.4f}")
params = [*trainer.user_tower.parameters(), *trainer.item_tower.parameters(), *trainer.ctr_head.parameters()]
print(f"checksum {sum(p.sum() for p in params).item():.6f}")
