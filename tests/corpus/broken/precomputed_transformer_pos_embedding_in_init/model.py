"""Small Transformer encoder for multivariate forecasting with learned positional embeddings."""
import torch
import torch.nn as nn


class TransformerForecaster(nn.Module):
    def __init__(self, n_features, context_len, horizon, d_model=16, n_heads=2):
        super().__init__()
        self.input_proj = nn.Linear(n_features, d_model)
        self.pos_emb = nn.Embedding(context_len, d_model)
        self.pos = self.pos_emb(torch.arange(context_len)).unsqueeze(0)
        self.encoder = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=32,
                                                  dropout=0.0, batch_first=True)
        self.head = nn.Linear(d_model * context_len, horizon)

    def forward(self, x):
        h = self.encoder(self.input_proj(x) + self.pos)
        return self.head(h.flatten(1))
