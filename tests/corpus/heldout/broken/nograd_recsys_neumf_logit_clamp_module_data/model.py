"""Neural matrix factorisation (GMF + MLP towers) for implicit feedback."""
import torch
import torch.nn as nn


class LogitClamp(nn.Module):
    """Keeps the scores in a range where BCE-with-logits stays well conditioned."""

    def __init__(self, bound=8.0):
        super().__init__()
        self.bound = bound

    def forward(self, x):
        clipped = x.data.clamp(-self.bound, self.bound)
        return clipped


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, dim=8):
        super().__init__()
        self.user_gmf = nn.Embedding(n_users, dim)
        self.item_gmf = nn.Embedding(n_items, dim)
        self.user_mlp = nn.Embedding(n_users, dim)
        self.item_mlp = nn.Embedding(n_items, dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 16), nn.ReLU(), nn.Linear(16, dim))
        self.head = nn.Sequential(nn.Linear(2 * dim, 1), nn.Flatten(0), LogitClamp())

    def forward(self, users, items):
        gmf = self.user_gmf(users) * self.item_gmf(items)
        mlp = self.mlp(torch.cat([self.user_mlp(users), self.item_mlp(items)], dim=-1))
        return self.head(torch.cat([gmf, mlp], dim=-1))
