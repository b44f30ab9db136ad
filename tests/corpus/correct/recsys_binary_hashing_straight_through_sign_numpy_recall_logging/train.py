"""Learning to hash for fast candidate retrieval: users and items get 16-bit binary codes,
scored by code agreement. sign() has no useful gradient, so the codes are trained with a
straight-through estimator; recall@10 is computed in NumPy on the detached codes and the
epoch loss is summarised from Python floats, for logging only."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, N_BITS = 48, 120, 16


class HashingRecommender(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, dim)
        self.item_emb = nn.Embedding(N_ITEMS, dim)
        self.user_hash = nn.Linear(dim, N_BITS)
        self.item_hash = nn.Linear(dim, N_BITS)

    @staticmethod
    def binarize(logits):
        soft = torch.tanh(logits)
        hard = torch.sign(soft)
        return soft + (hard - soft).detach(), soft  # straight-through: forward hard, backward soft

    def codes(self, users, items):
        bu, su = self.binarize(self.user_hash(self.user_emb(users)))
        bi, si = self.binarize(self.item_hash(self.item_emb(items)))
        return bu, bi, su, si


def interactions(g):
    taste = torch.randn(N_USERS, 3, generator=g)
    topic = torch.randn(N_ITEMS, 3, generator=g)
    liked = (taste @ topic.t()) > 1.0
    return liked.nonzero(), liked


def recall_at_k(model, liked, k=10):
    with torch.no_grad():
        bu, bi, _, _ = model.codes(torch.arange(N_USERS), torch.arange(N_ITEMS))
    scores = (bu @ bi.t()).numpy()
    truth = liked.numpy()
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    hits = np.take_along_axis(truth, top, axis=1).sum(1)
    return float(np.mean(hits / np.maximum(np.minimum(truth.sum(1), k), 1)))


def train(epochs=3, batch_size=256, quant_weight=0.1):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    pairs, liked = interactions(g)
    model = HashingRecommender()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        batch_losses = []
        perm = torch.randperm(len(pairs), generator=g)
        for start in range(0, len(pairs), batch_size):
            users, pos = pairs[perm[start:start + batch_size]].t()
            neg = torch.randint(0, N_ITEMS, pos.shape, generator=g)
            bu, bp, su, sp = model.codes(users, pos)
            _, bn, _, sn = model.codes(users, neg)
            margin = ((bu * bp).sum(1) - (bu * bn).sum(1)) / N_BITS
            bpr = -F.logsigmoid(4.0 * margin).mean()
            quant = sum((s.abs() - 1).pow(2).mean() for s in (su, sp, sn))
            loss = bpr + quant_weight * quant
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            batch_losses.append(loss.item())
        epoch_loss = torch.tensor(batch_losses).mean().item()
        print(f"epoch {epoch} loss {epoch_loss:.4f} recall@10 {recall_at_k(model, liked):.4f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
