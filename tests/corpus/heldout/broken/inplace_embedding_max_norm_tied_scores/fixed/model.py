"""Next-item recommender: the user vector is pooled from the item embeddings of the history
and scored against the whole catalogue with the same (tied) item embedding table."""
import torch
import torch.nn as nn


class NextItemModel(nn.Module):
    def __init__(self, n_items, dim=16):
        super().__init__()
        # bounded embeddings keep the dot-product scores in a sane range
        self.item_emb = nn.Embedding(n_items, dim, max_norm=1.0)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))
        self.temperature = 0.1

    def forward(self, history, target):
        hist = self.item_emb(history)
        user = self.encoder(hist.mean(dim=1))
        logits = user @ self.item_emb.weight.clone().t() / self.temperature
        pos = self.item_emb(target)
        alignment = (user * pos).sum(dim=-1)
        return logits, alignment
