"""Tabular regression (house prices) with a validation pass under torch.inference_mode()
after every epoch, early-stopping bookkeeping and a best-model snapshot."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
FEATURES = 7


def make_split(n):
    x = torch.randn(n, FEATURES)
    y = 2.0 * x[:, 0] - x[:, 1] + 0.5 * x[:, 2] * x[:, 3] + 0.1 * torch.randn(n)
    return x, y


class PriceModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEATURES, 32), nn.BatchNorm1d(32), nn.ReLU(),
                                 nn.Dropout(0.1), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def evaluate(model, x, y):
    model.eval()
    with torch.inference_mode():
        pred = model(x)
        mse = F.mse_loss(pred, y)
        mae = (pred - y).abs().mean()
    model.train()
    return mse.item(), mae.item()


train_x, train_y = make_split(256)
val_x, val_y = make_split(64)
model = PriceModel()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
best_val, best_state, patience = float("inf"), None, 0

for epoch in range(4):
    for start in range(0, 256, 64):
        xb, yb = train_x[start:start + 64], train_y[start:start + 64]
        loss = F.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    val_mse, val_mae = evaluate(model, val_x, val_y)
    if val_mse < best_val:
        best_val, best_state, patience = val_mse, copy.deepcopy(model.state_dict()), 0
    else:
        patience += 1
    print(f"epoch {epoch} train {loss.item():.6f} val mse {val_mse:.6f} mae {val_mae:.6f}")

model.load_state_dict(best_state)
print(f"best val mse {best_val:.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
