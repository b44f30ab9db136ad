"""Two-tower retrieval model: user and item towers map features to a shared space; items
are L2-normalised exactly like the vectors stored in the ANN index."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def index_normalize(vectors):
    """Normalisation used when the item vectors are exported to the ANN index."""
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


class TwoTower(nn.Module):
    def __init__(self, user_dim, item_dim, dim=16, temperature=0.1):
        super().__init__()
        self.user_tower = nn.Sequential(nn.Linear(user_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.item_tower = nn.Sequential(nn.Linear(item_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.temperature = temperature

    def forward(self, user_feats, item_feats):
        users = F.normalize(self.user_tower(user_feats), dim=-1)
        items = torch.from_numpy(index_normalize(self.item_tower(item_feats).detach().numpy()))
        return users @ items.t() / self.temperature
