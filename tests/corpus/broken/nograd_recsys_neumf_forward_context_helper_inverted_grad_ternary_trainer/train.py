"""NeuMF (GMF + MLP towers) on implicit feedback with sampled negatives, trained by a small
Trainer class; hit-rate@5 on one held-out item per user after every epoch."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from runtime import forward_context

N_USERS, N_ITEMS = 40, 60


@dataclass
class Config:
    dim: int = 8
    lr: float = 5e-3
    batch: int = 64
    negatives: int = 2
    epochs: int = 3
    amp: bool = True


class NeuMF(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gmf_user = nn.Embedding(N_USERS, dim)
        self.gmf_item = nn.Embedding(N_ITEMS, dim)
        self.mlp_user = nn.Embedding(N_USERS, dim)
        self.mlp_item = nn.Embedding(N_ITEMS, dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, dim // 2), nn.ReLU())
        self.predict = nn.Linear(dim + dim // 2, 1)

    def forward(self, users, items):
        gmf = self.gmf_user(users) * self.gmf_item(items)
        mlp = self.mlp(torch.cat([self.mlp_user(users), self.mlp_item(items)], dim=-1))
        return self.predict(torch.cat([gmf, mlp], dim=-1)).squeeze(-1)


def interactions(gen):
    """Users prefer items from their taste cluster."""
    taste = torch.arange(N_USERS) % 4
    pairs = []
    for u in range(N_USERS):
        pool = torch.arange(int(taste[u]), N_ITEMS, 4)
        picks = pool[torch.randperm(len(pool), generator=gen)[:6]]
        pairs += [(u, int(i)) for i in picks]
    return torch.tensor(pairs)


class Trainer:
    def __init__(self, cfg: Config):
        self.cfg = cfg
        self.model = NeuMF(cfg.dim)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.gen = torch.Generator().manual_seed(1)

    def train_step(self, users, pos):
        neg = torch.randint(0, N_ITEMS, (len(users) * self.cfg.negatives,), generator=self.gen)
        all_users = torch.cat([users, users.repeat(self.cfg.negatives)])
        all_items = torch.cat([pos, neg])
        labels = torch.cat([torch.ones(len(pos)), torch.zeros(len(neg))])
        self.model.train()
        with forward_context(self.cfg.amp, grad=True):
            logits = self.model(all_users, all_items)
        loss = F.binary_cross_entropy_with_logits(logits.float(), labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def hit_rate(self, held_out, k=5):
        self.model.eval()
        with forward_context(self.cfg.amp, grad=False):
            users = held_out[:, 0]
            scores = self.model(users.repeat_interleave(N_ITEMS), torch.arange(N_ITEMS).repeat(len(users)))
            top = scores.view(len(users), N_ITEMS).topk(k, dim=1).indices
        return (top == held_out[:, 1:]).any(dim=1).float().mean().item()

    def fit(self, train_pairs, held_out):
        for epoch in range(self.cfg.epochs):
            perm = torch.randperm(len(train_pairs), generator=self.gen)
            losses = []
            for start in range(0, len(perm), self.cfg.batch):
                batch = train_pairs[perm[start:start + self.cfg.batch]]
                losses.append(self.train_step(batch[:, 0], batch[:, 1]))
            print(f"epoch {epoch} bce {sum(losses) / len(losses):.4f} hr@5 {self.hit_rate(held_out):.3f}")


torch.manual_seed(0)
pairs = interactions(torch.Generator().manual_seed(0))
last = torch.arange(5, len(pairs), 6)
keep = torch.ones(len(pairs), dtype=torch.bool)
keep[last] = False
trainer = Trainer(Config())
trainer.fit(pairs[keep], pairs[last])
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
