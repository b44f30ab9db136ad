"""Matrix factorisation with BPR on synthetic implicit feedback. Everything that is logged or
used for bookkeeping (batch losses, recall@5, the best epoch, a plateau learning-rate cut) goes
through .item(), .detach().numpy() and NumPy; the loss itself stays in torch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, K = 40, 60, 8, 5


class BPRMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        for emb in (self.user, self.item):
            nn.init.normal_(emb.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def score(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1) + self.item_bias(i).squeeze(-1)

    def all_scores(self):
        return self.user.weight @ self.item.weight.T + self.item_bias.weight.T


def synthetic_interactions(rng):
    user_taste = rng.integers(0, 4, N_USERS)
    item_genre = rng.integers(0, 4, N_ITEMS)
    liked = (user_taste[:, None] == item_genre[None, :]) & (rng.random((N_USERS, N_ITEMS)) < 0.6)
    held_out = liked & (rng.random((N_USERS, N_ITEMS)) < 0.25)
    return liked & ~held_out, held_out


def recall_at_k(scores, train, test, k=K):
    scores = np.where(train, -np.inf, scores)
    top = np.argsort(-scores, axis=1)[:, :k]
    hits = np.take_along_axis(test, top, axis=1).sum(1)
    denom = np.minimum(test.sum(1), k)
    return float(np.mean(hits[denom > 0] / denom[denom > 0]))


rng = np.random.default_rng(0)
torch.manual_seed(0)
train_m, test_m = synthetic_interactions(rng)
users, pos_items = (torch.from_numpy(a) for a in np.nonzero(train_m))
model = BPRMF()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
history, best = [], {"recall": -1.0, "epoch": -1}

for epoch in range(6):
    perm = torch.randperm(len(users))
    batch_losses = []
    for idx in perm.split(128):
        u, i = users[idx], pos_items[idx]
        j = torch.randint(0, N_ITEMS, (len(idx),))
        loss = -F.logsigmoid(model.score(u, i) - model.score(u, j)).mean()
        loss = loss + 1e-4 * (model.user(u).pow(2).sum() + model.item(i).pow(2).sum()) / len(idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_losses.append(loss.item())
    with torch.no_grad():
        scores = model.all_scores().detach().numpy()
    recall = recall_at_k(scores, train_m, test_m)
    history.append(np.mean(batch_losses))
    if recall > best["recall"]:
        best = {"recall": recall, "epoch": epoch}
    if len(history) >= 3 and history[-1] > np.min(history[:-1]) - 1e-3:
        for group in optimizer.param_groups:
            group["lr"] *= 0.5
    print(f"epoch {epoch} bpr {history[-1]:.4f} recall@{K} {recall:.4f} "
          f"lr {optimizer.param_groups[0]['lr']:.4f}")

print(f"best recall@{K} {best['recall']:.4f} at epoch {best['epoch']}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
