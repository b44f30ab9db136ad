"""Memory-guided normality model for sensor windows (MNAD-style): the encoder's query is matched
against a small set of memory items that stand for the prototypical normal patterns, the decoder
reconstructs from [query, read-out], and the items are moved towards the queries that picked them
(a non-parametric update, no optimizer involved)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryAE(nn.Module):
    def __init__(self, in_dim=24, key_dim=12):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, key_dim))
        self.decoder = nn.Sequential(nn.Linear(2 * key_dim, 32), nn.ReLU(), nn.Linear(32, in_dim))

    def forward(self, x, items):
        query = F.normalize(self.encoder(x), dim=1)
        score = query @ items.t()                     # (batch, n_items)
        read = F.softmax(score, dim=1) @ items
        recon = self.decoder(torch.cat([query, read], dim=1))
        return recon, query, score

    @staticmethod
    def update_items(items, query, score):
        """Each item moves towards the queries for which it is the nearest item."""
        nearest = score.argmax(dim=1)
        weight = F.softmax(score, dim=0) * F.one_hot(nearest, items.size(0))
        weight = weight / weight.max(dim=0, keepdim=True).values.clamp_min(1e-6)
        return F.normalize(items + weight.t() @ query, dim=1)

    @staticmethod
    def feature_losses(items, query, score):
        """Compactness (query close to its item) and separateness (margin to the 2nd item)."""
        top2 = score.topk(2, dim=1).indices
        pos, neg = items[top2[:, 0]], items[top2[:, 1]]
        compact = (query - pos).pow(2).sum(1).mean()
        separate = F.triplet_margin_loss(query, pos, neg, margin=1.0)
        return compact, separate
