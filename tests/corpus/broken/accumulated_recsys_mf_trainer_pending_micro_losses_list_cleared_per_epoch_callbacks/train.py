"""Biased matrix factorisation for explicit ratings, trained through the project Trainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainer import Callback, Trainer

N_USERS, N_ITEMS, DIM = 12, 15, 4


class BiasedMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.user_bias = nn.Embedding(N_USERS, 1)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        self.global_bias = nn.Parameter(torch.tensor(3.0))

    def forward(self, users, items):
        dot = (self.user(users) * self.item(items)).sum(-1)
        return dot + self.user_bias(users).squeeze(-1) + self.item_bias(items).squeeze(-1) + self.global_bias


class RatingTrainer(Trainer):
    def training_step(self, batch):
        users, items, ratings = batch
        return F.mse_loss(self.model(users, items), ratings)


class PrintUpdates(Callback):
    def on_epoch_start(self, trainer, epoch):
        print(f"-- epoch {epoch}")

    def on_update(self, trainer, loss_value):
        print(f"update {trainer.updates} mse {loss_value:.4f}")


def ratings(n=48, batch=8, seed=9):
    g = torch.Generator().manual_seed(seed)
    users = torch.randint(0, N_USERS, (n,), generator=g)
    items = torch.randint(0, N_ITEMS, (n,), generator=g)
    taste = torch.randn(N_USERS, generator=g)
    quality = torch.randn(N_ITEMS, generator=g)
    r = (3 + taste[users] + quality[items]).clamp(1, 5)
    return [(users[i:i + batch], items[i:i + batch], r[i:i + batch]) for i in range(0, n, batch)]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BiasedMF()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    trainer = RatingTrainer(model, optimizer, accumulate=2, callbacks=[PrintUpdates()])
    trainer.fit(ratings(), epochs=2)
