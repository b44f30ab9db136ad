"""DeepFM for click-through prediction: first-order weights + FM pairwise interactions +
a deep tower, all over the same field embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DeepFM(nn.Module):
    def __init__(self, field_sizes, k=8, hidden=32, emb_dropout=0.1):
        super().__init__()
        self.offsets = torch.tensor([0] + list(field_sizes[:-1])).cumsum(0)
        n = sum(field_sizes)
        self.first_order = nn.Embedding(n, 1)
        self.embedding = nn.Embedding(n, k)
        self.emb_dropout = emb_dropout
        self.deep = nn.Sequential(nn.Linear(len(field_sizes) * k, hidden), nn.ReLU(),
                                  nn.Linear(hidden, 1))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, fields):  # (batch, n_fields) categorical ids
        idx = fields + self.offsets
        linear = self.first_order(idx).sum(1)
        emb = self.embedding(idx)  # (batch, n_fields, k)
        square_of_sum = emb.sum(1).pow(2)
        sum_of_square = emb.pow(2).sum(1)
        fm = 0.5 * (square_of_sum - sum_of_square).sum(1, keepdim=True)
        deep_in = F.dropout(emb, p=self.emb_dropout, training=self.training, inplace=True)
        deep = self.deep(deep_in.flatten(1))
        return (self.bias + linear + fm + deep).squeeze(-1)
