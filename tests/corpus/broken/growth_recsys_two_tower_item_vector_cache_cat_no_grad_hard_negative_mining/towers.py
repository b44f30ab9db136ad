"""Two-tower retrieval model: user and item ids go through their own embedding table and
MLP and are compared by dot product."""
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n_ids, dim=16, out=8):
        super().__init__()
        self.embedding = nn.Embedding(n_ids, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, out))

    def forward(self, ids):
        return F.normalize(self.mlp(self.embedding(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items):
        super().__init__()
        self.user_tower = Tower(n_users)
        self.item_tower = Tower(n_items)
