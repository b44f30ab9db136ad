"""Traffic-speed forecasting for a handful of loop detectors: an MLP over the last 12
five-minute readings predicts the next 3. The training step reuses evaluate_batch() from
metrics.py so that training and validation optimise and report the same weighted MAE."""
import torch
import torch.nn as nn

from metrics import evaluate_batch, validate

LOOKBACK, HORIZON = 12, 3
HORIZON_WEIGHTS = torch.tensor([1.0, 0.8, 0.6])


def detector_series(n_steps, gen):
    t = torch.arange(n_steps, dtype=torch.float32)
    daily = 55 - 20 * torch.exp(-((t % 96 - 34) / 6) ** 2) - 15 * torch.exp(-((t % 96 - 70) / 7) ** 2)
    return daily + 2.0 * torch.randn(n_steps, generator=gen)


def windows(series, start, count, stride=5):
    xs, ys = [], []
    for i in range(start, start + count * stride, stride):
        xs.append(series[i:i + LOOKBACK])
        ys.append(series[i + LOOKBACK:i + LOOKBACK + HORIZON])
    return (torch.stack(xs) - 45.0) / 15.0, (torch.stack(ys) - 45.0) / 15.0


torch.manual_seed(0)
gen = torch.Generator().manual_seed(7)
series = detector_series(600, gen)
train_batches = [windows(series, 16 * k * 5, 16) for k in range(4)]
val_batches = [windows(series, 400 + 3, 16)]

model = nn.Sequential(nn.Linear(LOOKBACK, 32), nn.GELU(), nn.Linear(32, HORIZON))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(2):
    for batch in train_batches:
        loss, per_horizon = evaluate_batch(model, batch, HORIZON_WEIGHTS)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    val_loss, val_mae = validate(model, val_batches, HORIZON_WEIGHTS)
    print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f} "
          f"mae/h {[round(v, 3) for v in val_mae.tolist()]}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
