"""Implicit-feedback matrix factorisation trained with BPR on sampled (user, pos, neg)
triples. Callbacks report the fraction of correctly ordered pairs each step, read from
the margins the BPR function already saved (no need to recompute the scores)."""
import torch
import torch.nn as nn

from losses import bpr_loss

N_USERS, N_ITEMS, DIM = 40, 60, 16


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.items = nn.Embedding(N_ITEMS, DIM)
        nn.init.normal_(self.users.weight, std=0.1)
        nn.init.normal_(self.items.weight, std=0.1)

    def score(self, u, i):
        return (self.users(u) * self.items(i)).sum(-1)


class PairAccuracy:
    def __init__(self):
        self.values = []

    def on_after_backward(self, step, loss):
        (margin,) = loss.grad_fn.saved_tensors
        self.values.append((margin > 0).float().mean().item())
        print(f"  step {step} pair accuracy {self.values[-1]:.3f}")


class LossPrinter:
    def on_after_backward(self, step, loss):
        print(f"step {step} bpr {loss.item():.4f}")


def sample_triples(interactions, n, gen):
    users = torch.randint(0, N_USERS, (n,), generator=gen)
    pos = torch.stack([interactions[u][torch.randint(0, len(interactions[u]), (1,), generator=gen)]
                       for u in users.tolist()]).squeeze(1)
    neg = torch.randint(0, N_ITEMS, (n,), generator=gen)
    return users, pos, neg


def main(steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    interactions = {u: torch.randperm(N_ITEMS, generator=gen)[:8] for u in range(N_USERS)}
    model = MF()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    callbacks = [LossPrinter(), PairAccuracy()]
    for step in range(steps):
        u, pos, neg = sample_triples(interactions, 128, gen)
        loss = bpr_loss(model.score(u, pos), model.score(u, neg))
        optimizer.zero_grad()
        loss.backward()
        for cb in callbacks:
            cb.on_after_backward(step, loss)
        optimizer.step()
    return callbacks[-1].values


if __name__ == "__main__":
    main()
