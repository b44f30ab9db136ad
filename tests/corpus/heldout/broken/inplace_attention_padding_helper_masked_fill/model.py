"""Self-attention forecaster for irregular-length sensor histories (left-padded)."""
import torch
import torch.nn as nn

from attention_utils import drop_padded_keys, scaled_scores


class AttentionForecaster(nn.Module):
    def __init__(self, d_model=16, horizon=3):
        super().__init__()
        self.embed = nn.Linear(2, d_model)
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.head = nn.Sequential(nn.Linear(d_model, 32), nn.ReLU(), nn.Linear(32, horizon))

    def forward(self, values, pad_mask):
        t = torch.linspace(0, 1, values.shape[1]).expand_as(values)
        h = self.embed(torch.stack([values, t], dim=-1))
        attn = torch.softmax(scaled_scores(self.q(h), self.k(h)), dim=-1)
        attn = drop_padded_keys(attn, pad_mask)
        context = attn @ self.v(h)
        return self.head(context[:, -1])
