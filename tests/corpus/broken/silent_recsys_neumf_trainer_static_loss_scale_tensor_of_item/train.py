"""Implicit-feedback recommender (NeuMF-lite: a GMF branch and an MLP branch over user/item
embeddings) trained with a BPR loss on sampled negatives. The Trainer was written for fp16
runs: it applies a static loss scale before backward and unscales the gradients before
clipping and stepping."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_users: int = 40
    n_items: int = 60
    dim: int = 8
    batch: int = 64
    lr: float = 1e-2
    loss_scale: float = 128.0
    max_grad_norm: float = 5.0
    steps: int = 6


class NeuMF(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.user_gmf = nn.Embedding(cfg.n_users, cfg.dim)
        self.item_gmf = nn.Embedding(cfg.n_items, cfg.dim)
        self.user_mlp = nn.Embedding(cfg.n_users, cfg.dim)
        self.item_mlp = nn.Embedding(cfg.n_items, cfg.dim)
        self.mlp = nn.Sequential(nn.Linear(2 * cfg.dim, 16), nn.ReLU(),
                                 nn.Linear(16, cfg.dim, bias=False))
        self.out = nn.Linear(2 * cfg.dim, 1, bias=False)  # biases cancel in BPR

    def forward(self, users, items):
        gmf = self.user_gmf(users) * self.item_gmf(items)
        mlp = self.mlp(torch.cat([self.user_mlp(users), self.item_mlp(items)], dim=-1))
        return self.out(torch.cat([gmf, mlp], dim=-1)).squeeze(-1)


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    def _scaled(self, loss):
        """Static loss scaling so small fp16 gradients do not underflow."""
        return torch.tensor(loss.item() * self.cfg.loss_scale, requires_grad=True)

    def _unscale_grads(self):
        for p in self.model.parameters():
            if p.grad is not None:
                p.grad.div_(self.cfg.loss_scale)

    def train_step(self, users, pos, neg):
        self.model.train()
        margin = self.model(users, pos) - self.model(users, neg)
        loss = -F.logsigmoid(margin).mean()
        self.optimizer.zero_grad()
        self._scaled(loss).backward()
        self._unscale_grads()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.max_grad_norm)
        self.optimizer.step()
        return loss.item()


def sample_batch(cfg, likes):
    users = torch.randint(0, cfg.n_users, (cfg.batch,))
    liked = likes[users]
    pos = torch.multinomial(liked.float() + 1e-6, 1).squeeze(1)
    neg = torch.multinomial((~liked).float() + 1e-6, 1).squeeze(1)
    return users, pos, neg


def main():
    torch.manual_seed(0)
    cfg = Config()
    taste = torch.randn(cfg.n_users, 3) @ torch.randn(3, cfg.n_items)
    likes = taste > taste.quantile(0.8, dim=1, keepdim=True)
    trainer = Trainer(NeuMF(cfg), cfg)
    for step in range(cfg.steps):
        loss = trainer.train_step(*sample_batch(cfg, likes))
        print(f"step {step} bpr {loss:.4f}")
    print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.4f}")


if __name__ == "__main__":
    main()
