"""Two-tower retrieval model: user and item towers map ids to embeddings on the unit
sphere; the score of a pair is their cosine similarity divided by a fixed temperature."""
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n_ids, dim):
        super().__init__()
        self.embedding = nn.Embedding(n_ids, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return self.mlp(self.embedding(ids))


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim=16, temperature=0.2):
        super().__init__()
        self.users = Tower(n_users, dim)
        self.items = Tower(n_items, dim)
        self.temperature = temperature

    def _to_unit_sphere(self, z):
        # projection onto the sphere; the projection itself has nothing to learn
        z_unit = F.normalize(z, dim=-1)
        return z_unit

    def forward(self, user_ids, item_ids):
        u = self._to_unit_sphere(self.users(user_ids))
        v = self._to_unit_sphere(self.items(item_ids))
        return (u * v).sum(-1) / self.temperature
