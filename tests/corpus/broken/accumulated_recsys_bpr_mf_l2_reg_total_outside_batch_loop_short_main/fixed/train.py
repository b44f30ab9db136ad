"""Implicit-feedback matrix factorisation trained with BPR on synthetic interactions.

Embedding L2 regularisation is applied only to the rows used in each batch (as in the
LightGCN / NGCF reference code), weighted by REG.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, BATCH, REG = 40, 60, 16, 32, 1e-3


class BPRMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        nn.init.normal_(self.user_emb.weight, std=0.1)
        nn.init.normal_(self.item_emb.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def score(self, u, i):
        return (u * self.item_emb(i)).sum(-1) + self.item_bias(i).squeeze(-1)


def make_interactions(rng):
    taste = rng.integers(0, 4, size=N_USERS)
    genre = rng.integers(0, 4, size=N_ITEMS)
    pairs = [(u, i) for u in range(N_USERS) for i in range(N_ITEMS)
             if genre[i] == taste[u] and rng.random() < 0.6]
    return np.array(pairs)


def main(steps=5):
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    pairs = make_interactions(rng)
    model = BPRMF()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

    for step in range(steps):
        idx = rng.choice(len(pairs), BATCH)
        users = torch.as_tensor(pairs[idx, 0])
        pos = torch.as_tensor(pairs[idx, 1])
        neg = torch.as_tensor(rng.integers(0, N_ITEMS, BATCH))

        u = model.user_emb(users)
        margin = model.score(u, pos) - model.score(u, neg)
        bpr = -F.logsigmoid(margin).mean()
        reg_loss = REG * (u.pow(2).sum() + model.item_emb(pos).pow(2).sum()
                          + model.item_emb(neg).pow(2).sum()) / BATCH
        loss = bpr + reg_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} bpr {bpr.item():.4f} reg {reg_loss.item():.6f} "
              f"auc~{(margin > 0).float().mean().item():.3f}")
    return loss.item()


if __name__ == "__main__":
    main()
