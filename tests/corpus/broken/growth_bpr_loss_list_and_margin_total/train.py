"""Matrix factorization for implicit feedback trained with the BPR loss. fit() keeps the
per-batch losses for the learning-curve plot and a running sum of the positive-negative
score margin as a cheap proxy for ranking quality."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_USERS, N_ITEMS, DIM = 50, 80, 12


class BPRMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)

    def score(self, users, items):
        return (self.user(users) * self.item(items)).sum(-1) + self.item_bias(items).squeeze(-1)


def sample_triples(n):
    users = torch.randint(0, N_USERS, (n,))
    positives = (users * 7 + torch.randint(0, 5, (n,))) % N_ITEMS   # each user's taste
    negatives = torch.randint(0, N_ITEMS, (n,))
    return users, positives, negatives


def fit(model, batches=12, batch_size=128, weight_decay=1e-4):
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
    loss_history = []
    total_margin = 0.0
    for step in range(batches):
        users, pos, neg = sample_triples(batch_size)
        margin = model.score(users, pos) - model.score(users, neg)
        loss = -F.logsigmoid(margin).mean() + weight_decay * model.user(users).pow(2).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_history.append(loss)
        total_margin += margin.mean()
    return loss_history, total_margin / batches


model = BPRMF()
curve, mean_margin = fit(model)
print("loss curve", " ".join(f"{l.item():.3f}" for l in curve))
print(f"mean margin {mean_margin.item():.4f}")
