"""Implicit-feedback matrix factorisation with the BPR loss and an L2 term on the looked-up
factors. The trainer keeps a per-metric history for its progress report and stops when the
BPR loss has not improved for a few steps."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, BATCH = 40, 60, 8, 32


class BPRMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        for emb in (self.users, self.items):
            nn.init.normal_(emb.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def score(self, u, i):
        return (self.users(u) * self.items(i)).sum(dim=1) + self.item_bias(i).squeeze(1)


def interactions(gen, n=400):
    taste = torch.randn(N_USERS, 3, generator=gen)
    genre = torch.randn(N_ITEMS, 3, generator=gen)
    affinity = taste @ genre.t()
    users = torch.randint(0, N_USERS, (n,), generator=gen)
    pos = torch.multinomial(F.softmax(2 * affinity[users], dim=1), 1, generator=gen).squeeze(1)
    return users, pos


class BPRTrainer:
    def __init__(self, model, reg=1e-3, patience=4):
        self.model = model
        self.reg = reg
        self.patience = patience
        self.optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        self.history = defaultdict(list)

    def log_metric(self, name, value):
        self.history[name].append(value.item())

    def plateaued(self):
        bpr = self.history["bpr"]
        if len(bpr) <= self.patience:
            return False
        return min(bpr[-self.patience:]) > min(bpr[:-self.patience]) - 1e-4

    def step(self, u, pos, neg):
        diff = self.model.score(u, pos) - self.model.score(u, neg)
        bpr = -F.logsigmoid(diff).mean()
        factors = torch.cat([self.model.users(u), self.model.items(pos), self.model.items(neg)])
        l2 = self.reg * factors.pow(2).sum(dim=1).mean()
        loss = bpr + l2
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.log_metric("bpr", bpr)
        self.log_metric("l2", l2)
        self.log_metric("auc", (diff > 0).float().mean())

    def fit(self, users, pos, gen, max_steps=8):
        for step in range(max_steps):
            idx = torch.randint(0, len(users), (BATCH,), generator=gen)
            neg = torch.randint(0, N_ITEMS, (BATCH,), generator=gen)
            self.step(users[idx], pos[idx], neg)
            h = self.history
            print(f"step {step} bpr {h['bpr'][-1]:.4f} l2 {h['l2'][-1]:.5f} "
                  f"auc {h['auc'][-1]:.3f}")
            if self.plateaued():
                print("bpr plateaued, stopping")
                break


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(21)
    users, pos = interactions(gen)
    BPRTrainer(BPRMF()).fit(users, pos, gen)


if __name__ == "__main__":
    main()
