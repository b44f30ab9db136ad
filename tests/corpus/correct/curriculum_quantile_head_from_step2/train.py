"""Multi-horizon demand forecaster with a curriculum: the quantile head joins at step 2.

All parameters, including the quantile head, are in one Adam optimizer from the start.
During the first two steps only the point-forecast loss is used, so the quantile head has
no gradient yet (Adam skips parameters whose .grad is None); from step 2 on the pinball
loss is added and every parameter learns.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(35)
HISTORY, HORIZON, QUANTILES = 12, 4, (0.1, 0.5, 0.9)


@dataclass
class Curriculum:
    quantile_start: int = 2
    quantile_weight: float = 0.5

    def use_quantiles(self, step):
        return step >= self.quantile_start


class DemandForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(HISTORY + 2, 48), nn.GELU(), nn.Linear(48, 32), nn.GELU())
        self.point_head = nn.Linear(32, HORIZON)
        self.quantile_head = nn.Linear(32, HORIZON * len(QUANTILES))

    def forward(self, history, calendar):
        h = self.encoder(torch.cat([history, calendar], dim=1))
        return self.point_head(h), self.quantile_head(h).view(-1, HORIZON, len(QUANTILES))


def pinball(pred, target):
    q = torch.tensor(QUANTILES)
    err = target.unsqueeze(-1) - pred
    return torch.maximum(q * err, (q - 1) * err).mean()


def sample_batch(n=32):
    t0 = torch.randint(0, 100, (n, 1)).float()
    t = t0 + torch.arange(HISTORY + HORIZON).float()
    series = 10 + 3 * torch.sin(2 * torch.pi * t / 7) + torch.randn(n, HISTORY + HORIZON)
    calendar = torch.cat([torch.sin(2 * torch.pi * t0 / 7), torch.cos(2 * torch.pi * t0 / 7)], dim=1)
    scale = series[:, :HISTORY].mean(1, keepdim=True)
    return series[:, :HISTORY] / scale, calendar, series[:, HISTORY:] / scale


model = DemandForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
curriculum = Curriculum()
for step in range(7):
    history, calendar, target = sample_batch()
    point, quantiles = model(history, calendar)
    loss = F.l1_loss(point, target)
    q_loss = torch.tensor(0.0)
    if curriculum.use_quantiles(step):
        q_loss = pinball(quantiles, target)
        loss = loss + curriculum.quantile_weight * q_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    head_has_grad = model.quantile_head.weight.grad is not None
    print(f"step {step} loss {loss.item():.6f} pinball {q_loss.item():.6f} quantile head grad {head_has_grad}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
