"""Day-ahead electricity load forecasting: a small MLP maps the last 24 hours (standardised)
to the next 6 hours. The MAE is computed in megawatts, after undoing the standardisation,
so that the logged loss is directly comparable with the operator's benchmark."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
LOOKBACK, HORIZON, BATCH, EPOCHS = 24, 6, 16, 3


@dataclass
class StandardScaler:
    mean: float = 0.0
    std: float = 1.0

    def fit(self, series: np.ndarray) -> "StandardScaler":
        self.mean, self.std = float(series.mean()), float(series.std())
        return self

    def transform(self, values: torch.Tensor) -> torch.Tensor:
        return (values - self.mean) / self.std

    def inverse(self, values: torch.Tensor) -> torch.Tensor:
        restored = values.detach().cpu().numpy() * self.std + self.mean
        return torch.from_numpy(restored.astype(np.float32))


def hourly_load(days=12):
    hours = np.arange(days * 24)
    daily = 120 * np.sin(2 * np.pi * (hours % 24 - 7) / 24)
    weekly = 40 * (hours // 24 % 7 >= 5)
    return 900 + daily - weekly + 15 * np.random.randn(len(hours))


def make_windows(series):
    xs, ys = [], []
    for start in range(0, len(series) - LOOKBACK - HORIZON, 3):
        xs.append(series[start:start + LOOKBACK])
        ys.append(series[start + LOOKBACK:start + LOOKBACK + HORIZON])
    return torch.tensor(np.array(xs), dtype=torch.float32), torch.tensor(np.array(ys),
                                                                         dtype=torch.float32)


series = hourly_load()
scaler = StandardScaler().fit(series)
inputs, targets_mw = make_windows(series)
model = nn.Sequential(nn.Linear(LOOKBACK, 64), nn.ReLU(), nn.Linear(64, HORIZON))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)

for epoch in range(EPOCHS):
    total, batches = 0.0, 0
    for start in range(0, len(inputs), BATCH):
        x = scaler.transform(inputs[start:start + BATCH])
        y_mw = targets_mw[start:start + BATCH]
        pred_mw = scaler.inverse(model(x))
        loss = (pred_mw - y_mw).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total, batches = total + loss.item(), batches + 1
    print(f"epoch {epoch} MAE {total / batches:.2f} MW")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
