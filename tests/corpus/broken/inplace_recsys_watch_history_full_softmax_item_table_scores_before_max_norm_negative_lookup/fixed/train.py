"""YouTube-DNN style candidate generator: watch history -> user vector, full softmax over the item table
plus a margin term against hard negatives."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_items: int = 60
    dim: int = 16
    history_len: int = 5
    batch: int = 24
    margin: float = 0.3
    steps: int = 6


class CandidateGenerator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.item_emb = nn.Embedding(cfg.n_items, cfg.dim, max_norm=1.0)
        self.user_tower = nn.Sequential(nn.Linear(cfg.dim, 32), nn.ReLU(), nn.Linear(32, cfg.dim))

    def forward(self, history, hard_neg):
        user = self.user_tower(self.item_emb(history).mean(dim=1))
        logits = user @ self.item_emb.weight.clone().t()
        neg_vec = self.item_emb(hard_neg)
        return user, logits, neg_vec


def sample_sessions(cfg, gen):
    genre = torch.randint(0, 4, (cfg.batch, 1), generator=gen)
    items_per_genre = cfg.n_items // 4
    history = genre * items_per_genre + torch.randint(0, items_per_genre, (cfg.batch, cfg.history_len), generator=gen)
    target = genre.squeeze(1) * items_per_genre + torch.randint(0, items_per_genre, (cfg.batch,), generator=gen)
    hard_neg = ((genre.squeeze(1) + 1) % 4) * items_per_genre + torch.randint(0, items_per_genre, (cfg.batch,), generator=gen)
    return history, target, hard_neg


def main():
    cfg = Config()
    torch.manual_seed(17)
    gen = torch.Generator().manual_seed(17)
    model = CandidateGenerator(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(cfg.steps):
        history, target, hard_neg = sample_sessions(cfg, gen)
        user, logits, neg_vec = model(history, hard_neg)
        pos_score = logits.gather(1, target[:, None]).squeeze(1)
        neg_score = (user * neg_vec).sum(-1)
        loss = F.cross_entropy(logits, target) + F.relu(cfg.margin - pos_score + neg_score).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
