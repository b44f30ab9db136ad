import torch
import torch.nn as nn


class NextItemScorer(nn.Module):
    """Scores every catalogue item against a user-interest vector."""

    def __init__(self, n_items, dim):
        super().__init__()
        self.items = nn.Embedding(n_items, dim)
        self.query = nn.Linear(dim, dim)

    def embed_clicks(self, clicked):
        return self.items(clicked).mean(dim=0)

    def forward(self, interest):
        q = torch.tanh(self.query(interest))
        return q @ self.items.weight.t()
