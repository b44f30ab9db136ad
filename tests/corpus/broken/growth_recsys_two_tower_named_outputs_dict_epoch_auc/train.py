"""Two-tower retrieval model (user tower, item tower) trained with a BPR loss on implicit
feedback. Named batch outputs are collected into a dict of lists so that the end of each
epoch can report the training AUC and the mean user-embedding norm."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_USERS, N_ITEMS, N_GENRES, DIM, BATCH = 50, 80, 5, 16, 64
EPOCHS, BATCHES_PER_EPOCH = 2, 5


class Tower(nn.Module):
    def __init__(self, n_ids):
        super().__init__()
        self.emb = nn.Embedding(n_ids, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, DIM), nn.ReLU(), nn.Linear(DIM, DIM))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = Tower(N_USERS)
        self.items = Tower(N_ITEMS)
        self.temperature = 0.2

    def forward(self, u, i, j):
        eu, ei, ej = self.users(u), self.items(i), self.items(j)
        pos = (eu * ei).sum(-1) / self.temperature
        neg = (eu * ej).sum(-1) / self.temperature
        return eu, pos, neg


def sample_interactions():
    """Users like items of their favourite genre (id % N_GENRES)."""
    u = torch.randint(0, N_USERS, (BATCH,))
    liked = (u % N_GENRES) + N_GENRES * torch.randint(0, N_ITEMS // N_GENRES, (BATCH,))
    other = torch.randint(0, N_ITEMS, (BATCH,))
    return u, liked, other


def collect(outputs, **named):
    for name, value in named.items():
        outputs[name].append(value)


def epoch_auc(outputs, n_batches):
    pos = torch.cat(outputs["pos_score"][-n_batches:])
    neg = torch.cat(outputs["neg_score"][-n_batches:])
    return (pos > neg).float().mean().item()


model = TwoTower()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
outputs = defaultdict(list)
for epoch in range(EPOCHS):
    for step in range(BATCHES_PER_EPOCH):
        u, i, j = sample_interactions()
        user_emb, pos, neg = model(u, i, j)
        loss = -F.logsigmoid(pos - neg).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        collect(outputs, user_emb=user_emb, pos_score=pos, neg_score=neg, loss=loss)
        print(f"epoch {epoch} step {step} bpr {loss.item():.4f}")
    norms = torch.cat(outputs["user_emb"][-BATCHES_PER_EPOCH:]).norm(dim=-1).mean().item()
    print(f"epoch {epoch} train auc {epoch_auc(outputs, BATCHES_PER_EPOCH):.3f} "
          f"user-emb norm {norms:.3f} mean bpr {torch.stack(outputs['loss']).mean().item():.4f}")
