"""Explicit-feedback matrix factorisation (biased MF) with max-norm constrained embeddings.

The epoch loop keeps a running loss weighted by batch size using loss.item(). After each
optimizer step the user and item embedding rows are renormalised in place to a maximum
L2 norm under torch.no_grad().
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(33)
N_USERS, N_ITEMS, FACTORS, MAX_NORM = 25, 30, 6, 0.5


class BiasedMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, FACTORS)
        self.item = nn.Embedding(N_ITEMS, FACTORS)
        self.user_bias = nn.Embedding(N_USERS, 1)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        self.global_bias = nn.Parameter(torch.tensor(3.0))
        for emb in (self.user, self.item):
            nn.init.normal_(emb.weight, std=0.1)
        for emb in (self.user_bias, self.item_bias):
            nn.init.zeros_(emb.weight)

    def forward(self, u, i):
        dot = (self.user(u) * self.item(i)).sum(1)
        return dot + self.user_bias(u).squeeze(1) + self.item_bias(i).squeeze(1) + self.global_bias

    @torch.no_grad()
    def apply_max_norm(self):
        for emb in (self.user, self.item):
            emb.weight.renorm_(p=2, dim=0, maxnorm=MAX_NORM)


def ratings_table(n=180):
    u, i = torch.randint(0, N_USERS, (n,)), torch.randint(0, N_ITEMS, (n,))
    taste = torch.randn(N_USERS, 2) @ torch.randn(2, N_ITEMS)
    r = (3 + taste[u, i] + 0.3 * torch.randn(n)).clamp(1, 5)
    return u, i, r


model = BiasedMF()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
users, items, ratings = ratings_table()
for epoch in range(3):
    running_loss, seen = 0.0, 0
    perm = torch.randperm(len(ratings))
    for batch in perm.split(60):
        pred = model(users[batch], items[batch])
        loss = F.mse_loss(pred, ratings[batch])
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.apply_max_norm()
        running_loss += loss.item() * len(batch)
        seen += len(batch)
    print(f"epoch {epoch} rmse {(running_loss / seen) ** 0.5:.6f} "
          f"max user norm {model.user.weight.norm(dim=1).max().item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
