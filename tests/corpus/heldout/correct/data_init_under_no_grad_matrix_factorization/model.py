"""Biased matrix factorisation for explicit ratings."""
import torch
import torch.nn as nn


class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, dim=8, global_mean=3.5):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        self.global_bias = nn.Parameter(torch.zeros(1))
        self._init_weights(global_mean)

    def _init_weights(self, global_mean):
        with torch.no_grad():
            self.user.weight.data.normal_(0, 0.1)
            self.item.weight.data.normal_(0, 0.1)
            self.user_bias.weight.data.zero_()
            self.item_bias.weight.data.zero_()
            self.global_bias.data.fill_(global_mean)

    def forward(self, users, items):
        dot = (self.user(users) * self.item(items)).sum(dim=1)
        bias = self.user_bias(users).squeeze(1) + self.item_bias(items).squeeze(1)
        return dot + bias + self.global_bias
