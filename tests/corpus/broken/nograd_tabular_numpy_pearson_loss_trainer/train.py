"""Tabular regression scored by Pearson correlation (a Numerai-style target): the model is
trained to maximise the same correlation the leaderboard reports."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn

from metrics import pearson_r


@dataclass
class TrainState:
    epoch: int = 0
    history: list = field(default_factory=list)


class CorrTrainer:
    def __init__(self, n_features, lr=3e-3):
        self.model = nn.Sequential(nn.Linear(n_features, 32), nn.SiLU(), nn.Linear(32, 1))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.state = TrainState()

    def training_step(self, x, y):
        pred = self.model(x).squeeze(-1)
        loss = 1.0 - torch.as_tensor(pearson_r(pred, y))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader, epochs):
        for _ in range(epochs):
            losses = [self.training_step(x, y) for x, y in loader]
            self.state.history.append(sum(losses) / len(losses))
            self.state.epoch += 1
            print(f"epoch {self.state.epoch} 1 - corr {self.state.history[-1]:.4f}")


torch.manual_seed(0)
features = torch.randn(96, 10)
target = torch.tanh(features[:, 0] - 0.5 * features[:, 3]) + 0.2 * torch.randn(96)
loader = [(features[i:i + 32], target[i:i + 32]) for i in range(0, 96, 32)]
CorrTrainer(10).fit(loader, epochs=2)
