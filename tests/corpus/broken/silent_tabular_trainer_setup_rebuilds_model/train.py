"""Churn classifier on a mixed tabular table (numeric columns + one-hot categoricals).
The Trainer builds model and optimizer from the config; setup() fits the feature scaler on
the training table and rebuilds the network for the encoded width it finds there."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_inputs: int = 16
    hidden: int = 32
    lr: float = 5e-3
    epochs: int = 3


def build_model(cfg):
    return nn.Sequential(nn.Linear(cfg.n_inputs, cfg.hidden), nn.ReLU(),
                         nn.Dropout(0.1), nn.Linear(cfg.hidden, 1))


def encode(numeric, plan, region):
    return torch.cat([numeric, F.one_hot(plan, 3).float(), F.one_hot(region, 5).float()], 1)


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = build_model(cfg)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)

    def setup(self, features):
        self.mean, self.std = features.mean(0), features.std(0) + 1e-6
        self.cfg.n_inputs = features.shape[1]
        self.model = build_model(self.cfg)

    def fit(self, features, labels, batch_size=32):
        x = (features - self.mean) / self.std
        self.model.train()
        for epoch in range(self.cfg.epochs):
            for start in range(0, len(x), batch_size):
                logits = self.model(x[start:start + batch_size]).squeeze(1)
                loss = F.binary_cross_entropy_with_logits(logits, labels[start:start + batch_size])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f}")


torch.manual_seed(0)
numeric = torch.randn(64, 4)
plan, region = torch.randint(0, 3, (64,)), torch.randint(0, 5, (64,))
labels = ((numeric[:, 0] > 0.3) | (plan == 2)).float()
features = encode(numeric, plan, region)
trainer = Trainer(Config())
trainer.setup(features)
trainer.fit(features, labels)
