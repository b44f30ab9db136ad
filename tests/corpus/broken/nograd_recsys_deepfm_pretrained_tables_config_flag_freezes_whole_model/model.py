"""DeepFM click-through-rate model over categorical fields. The field embeddings can be
initialised from the matrix-factorisation stage and kept fixed (train_embeddings=False)."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class DeepFMConfig:
    vocab_sizes: tuple = (50, 40, 24)          # user id, item id, hour of day
    emb_dim: int = 8
    hidden: list = field(default_factory=lambda: [32, 16])
    train_embeddings: bool = False


class DeepFM(nn.Module):
    def __init__(self, cfg, pretrained=None):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(v, cfg.emb_dim) for v in cfg.vocab_sizes)
        self.first_order = nn.ModuleList(nn.Embedding(v, 1) for v in cfg.vocab_sizes)
        self.bias = nn.Parameter(torch.zeros(1))
        dims = [len(cfg.vocab_sizes) * cfg.emb_dim, *cfg.hidden]
        layers = []
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            layers += [nn.Linear(d_in, d_out), nn.ReLU()]
        self.mlp = nn.Sequential(*layers, nn.Linear(dims[-1], 1))
        if pretrained is not None:
            for table, weights in zip(self.embeddings, pretrained):
                table.weight.data.copy_(weights)
            self.requires_grad_(cfg.train_embeddings)

    def forward(self, fields):
        embs = torch.stack([emb(fields[:, i]) for i, emb in enumerate(self.embeddings)], 1)
        linear = sum(w(fields[:, i]) for i, w in enumerate(self.first_order)).squeeze(-1)
        square_of_sum = embs.sum(1).pow(2)
        sum_of_square = embs.pow(2).sum(1)
        fm = 0.5 * (square_of_sum - sum_of_square).sum(1)
        deep = self.mlp(embs.flatten(1)).squeeze(-1)
        return self.bias + linear + fm + deep
