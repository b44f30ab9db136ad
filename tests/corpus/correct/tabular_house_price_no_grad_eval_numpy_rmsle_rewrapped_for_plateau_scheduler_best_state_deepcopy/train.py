"""House-price regression: numpy validation metrics, plateau LR, best-weights snapshot."""
import copy
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn


@dataclass
class History:
    train_loss: list = field(default_factory=list)
    val_rmsle: list = field(default_factory=list)
    best: float = float("inf")


def housing(n, g):
    x = torch.rand(n, 6, generator=g)
    price = 50 + 300 * x[:, 0] + 120 * x[:, 1] * x[:, 2] + 40 * torch.sin(6 * x[:, 3])
    return x, torch.log1p(price)[:, None]


def rmsle(pred_log, true_log):
    return float(np.sqrt(np.mean((pred_log - true_log) ** 2)))


def main():
    torch.manual_seed(1)
    g = torch.Generator().manual_seed(1)
    x_tr, y_tr = housing(160, g)
    x_va, y_va = housing(48, g)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    with torch.no_grad():
        model[2].bias.fill_(float(y_tr.mean()))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=0)
    hist, best_state = History(), None

    for epoch in range(5):
        model.train()
        running = 0.0
        for i in range(0, 160, 32):
            pred = model(x_tr[i:i + 32])
            loss = nn.functional.mse_loss(pred, y_tr[i:i + 32])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        hist.train_loss.append(running / 5)

        model.eval()
        with torch.no_grad():
            val_pred = model(x_va)
        score = rmsle(val_pred.detach().numpy(), y_va.numpy())
        hist.val_rmsle.append(score)
        scheduler.step(torch.tensor(score))
        if score < hist.best:
            hist.best, best_state = score, copy.deepcopy(model.state_dict())
        print(f"epoch {epoch} train mse {hist.train_loss[-1]:.5f} val rmsle {score:.5f} "
              f"lr {optimizer.param_groups[0]['lr']:.4g}")

    model.load_state_dict(best_state)
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"best rmsle {hist.best:.5f} checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
