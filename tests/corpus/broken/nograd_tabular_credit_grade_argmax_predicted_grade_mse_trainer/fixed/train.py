"""Credit-grade model: 5 ordinal grades (A..E) from 10 applicant features.

The risk team scores the model on the mean squared grade error, so the
trainer optimises that quantity directly.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_GRADES = 5


@dataclass
class TrainConfig:
    epochs: int = 4
    lr: float = 3e-3
    batch_size: int = 32
    seed: int = 4


class GradeNet(nn.Module):
    def __init__(self, n_features=10, hidden=24):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.logits = nn.Linear(hidden, N_GRADES)

    def forward(self, x):
        return self.logits(self.body(x))


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)

    def step(self, x, grade):
        logits = self.model(x)
        grades = torch.arange(N_GRADES, dtype=logits.dtype)
        pred_grade = (logits.softmax(dim=1) * grades).sum(dim=1)
        loss = F.mse_loss(pred_grade, grade.float())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, x, grade):
        for epoch in range(self.cfg.epochs):
            perm = torch.randperm(x.shape[0])
            losses = []
            for i in range(0, x.shape[0], self.cfg.batch_size):
                idx = perm[i:i + self.cfg.batch_size]
                losses.append(self.step(x[idx], grade[idx]))
            print(f"epoch {epoch} grade mse {sum(losses) / len(losses):.4f}")


def make_applicants(n=96):
    x = torch.randn(n, 10)
    risk = x[:, :3].sum(1) + 0.3 * torch.randn(n)
    grade = torch.bucketize(risk, torch.tensor([-1.5, -0.5, 0.5, 1.5]))
    return x, grade


if __name__ == "__main__":
    cfg = TrainConfig()
    torch.manual_seed(cfg.seed)
    x, grade = make_applicants()
    Trainer(GradeNet(), cfg).fit(x, grade)
