"""Trains the yield regressor on synthetic fields: 12 fortnightly observations of
(NDVI, rainfall, growing degree days) and 3 soil properties per field."""
from dataclasses import dataclass

import torch
import torch.nn as nn

from model import YieldRegressor

torch.manual_seed(0)


@dataclass
class Config:
    fields: int = 120
    steps: int = 12
    batch: int = 40
    epochs: int = 2
    lr: float = 5e-3


def make_fields(cfg):
    ndvi = torch.sigmoid(torch.randn(cfg.fields, 1) + torch.linspace(-2, 2, cfg.steps))
    rain = torch.rand(cfg.fields, cfg.steps)
    gdd = torch.cumsum(torch.rand(cfg.fields, cfg.steps), dim=1) / cfg.steps
    series = torch.stack([ndvi, rain, gdd], dim=-1)
    soil = torch.randn(cfg.fields, 3)
    target = 4.0 + 3.0 * ndvi[:, -4:].mean(1) + 0.8 * rain.mean(1) + 0.3 * soil[:, 0]
    return series, soil, target


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = YieldRegressor(n_series=3, n_soil=3)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.loss_fn = nn.HuberLoss(delta=1.0)

    def train_step(self, series, soil, target):
        pred = self.model(series, soil)
        loss = self.loss_fn(pred, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, series, soil, target):
        for epoch in range(self.cfg.epochs):
            order = torch.randperm(self.cfg.fields)
            for start in range(0, self.cfg.fields, self.cfg.batch):
                idx = order[start:start + self.cfg.batch]
                loss = self.train_step(series[idx], soil[idx], target[idx])
            print(f"epoch {epoch} huber {loss:.4f}")


if __name__ == "__main__":
    cfg = Config()
    Trainer(cfg).fit(*make_fields(cfg))
