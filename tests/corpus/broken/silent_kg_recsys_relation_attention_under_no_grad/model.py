"""Knowledge-aware recommender (a small KGAT-style model): each item's vector is its own
embedding plus an attention-weighted sum over its knowledge-graph neighbours (brand,
category, artist...). The relation-aware scorer decides how much each neighbour counts."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KnowledgeAwareRecommender(nn.Module):
    def __init__(self, n_users, n_items, n_entities, n_relations, dim=16):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.entity_emb = nn.Embedding(n_entities, dim)
        self.relation_emb = nn.Embedding(n_relations, dim)
        self.att = nn.Sequential(nn.Linear(3 * dim, dim), nn.Tanh(), nn.Linear(dim, 1))
        for emb in (self.user_emb, self.item_emb, self.entity_emb, self.relation_emb):
            nn.init.normal_(emb.weight, std=0.1)

    def item_vectors(self, items, neighbours, relations):
        """items: (B,), neighbours/relations: (B, K) entity and relation ids per item."""
        own = self.item_emb(items)
        nbr = self.entity_emb(neighbours)
        rel = self.relation_emb(relations)
        messages = nbr + rel
        with torch.no_grad():
            # attention only re-weights neighbours; keep it out of the graph to save memory
            scores = self.att(torch.cat([own.unsqueeze(1).expand_as(nbr), rel, nbr], -1))
            weights = F.softmax(scores.squeeze(-1), dim=-1)
        return own + (weights.unsqueeze(-1) * messages).sum(1)

    def score(self, users, items, neighbours, relations):
        return (self.user_emb(users) * self.item_vectors(items, neighbours, relations)).sum(-1)
