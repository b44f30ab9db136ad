"""Centred matrix factorisation: user vectors are scored relative to a running centroid of the
users seen in training, which takes the shared "everyone likes the popular items" direction
out of the dot product."""
import torch
import torch.nn as nn


class CenteredMF(nn.Module):
    def __init__(self, n_users, n_items, dim=16, momentum=0.9):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)
        self.item_bias = nn.Embedding(n_items, 1)
        self.momentum = momentum
        self.register_buffer("user_centroid", torch.zeros(dim))
        nn.init.normal_(self.users.weight, std=0.1)
        nn.init.normal_(self.items.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def user_vectors(self, users):
        u = self.users(users)
        if self.training:
            m = self.momentum
            self.user_centroid = m * self.user_centroid + (1 - m) * u.mean(dim=0)
        # the centroid is a statistic, not something to backpropagate into
        return u - self.user_centroid.detach()

    def score(self, u, items):
        return (u * self.items(items)).sum(-1) + self.item_bias(items).squeeze(-1)

    def forward(self, users, pos_items, neg_items):
        u = self.user_vectors(users)
        return self.score(u, pos_items), self.score(u, neg_items)
