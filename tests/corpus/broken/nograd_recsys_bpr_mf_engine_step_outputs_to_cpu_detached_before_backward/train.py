"""Implicit-feedback recommender: matrix factorisation with item biases trained with the
BPR pairwise loss on (user, clicked item, sampled negative) triples, run by engine.Engine."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import Engine

N_USERS, N_ITEMS, DIM = 40, 60, 8


class BPRMF(nn.Module):
    def __init__(self, l2=1e-4):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)
        self.l2 = l2

    def score(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1) + self.item_bias(i).squeeze(-1)

    def training_step(self, batch):
        u, pos, neg = batch
        diff = self.score(u, pos) - self.score(u, neg)
        bpr = -F.logsigmoid(diff).mean()
        reg = self.l2 * (self.user(u).pow(2).sum() + self.item(pos).pow(2).sum()
                         + self.item(neg).pow(2).sum()) / len(u)
        return {"loss": bpr + reg, "bpr": bpr, "pairwise_acc": (diff > 0).float().mean()}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=0.01)


def make_loader(gen, n_batches=3, batch_size=64):
    taste = torch.randn(N_USERS, 3, generator=gen)
    genre = torch.randn(N_ITEMS, 3, generator=gen)
    prefs = taste @ genre.T

    def loader():
        for _ in range(n_batches):
            u = torch.randint(0, N_USERS, (batch_size,), generator=gen)
            a = torch.randint(0, N_ITEMS, (batch_size,), generator=gen)
            b = torch.randint(0, N_ITEMS, (batch_size,), generator=gen)
            a_wins = prefs[u, a] > prefs[u, b]
            yield u, torch.where(a_wins, a, b), torch.where(a_wins, b, a)
    return loader


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BPRMF()
    Engine(max_epochs=3).fit(model, make_loader(torch.Generator().manual_seed(8)))
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
