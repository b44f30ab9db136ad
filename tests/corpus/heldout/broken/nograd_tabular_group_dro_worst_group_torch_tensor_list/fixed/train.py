"""Credit-default scoring with group DRO: instead of the average BCE, each step minimises
the loss of the worst-off applicant group (age band), with a small exponentiated-gradient
weighting carried between steps as in Sagawa et al."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_rows: int = 240
    n_features: int = 10
    n_groups: int = 3
    batch_size: int = 60
    epochs: int = 2
    lr: float = 5e-3
    group_step: float = 0.1


def load_applicants(cfg, generator):
    x = torch.randn(cfg.n_rows, cfg.n_features, generator=generator)
    group = torch.randint(0, cfg.n_groups, (cfg.n_rows,), generator=generator)
    w = torch.randn(cfg.n_features, generator=generator)
    logit = x @ w + 0.8 * (group == 2).float() - 0.5
    y = (torch.rand(cfg.n_rows, generator=generator) < torch.sigmoid(logit)).float()
    return x, group, y


def train(cfg):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x, group, y = load_applicants(cfg, gen)
    model = nn.Sequential(nn.Linear(cfg.n_features, 32), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=1e-4)
    q = torch.full((cfg.n_groups,), 1.0 / cfg.n_groups)

    for epoch in range(cfg.epochs):
        order = torch.randperm(cfg.n_rows, generator=gen)
        for batch in order.split(cfg.batch_size):
            logits = model(x[batch]).squeeze(-1)
            g, t = group[batch], y[batch]
            group_losses = torch.stack([
                F.binary_cross_entropy_with_logits(logits[g == k], t[g == k])
                for k in range(cfg.n_groups)
            ])
            with torch.no_grad():
                q = q * torch.exp(cfg.group_step * group_losses)
                q = q / q.sum()
            loss = (q * group_losses).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        worst = group_losses.max().item()
        print(f"epoch {epoch} robust loss {loss.item():.4f} worst group {worst:.4f} "
              f"q {[round(v, 3) for v in q.tolist()]}")


if __name__ == "__main__":
    train(Config())
