"""Retail demand: a global MLP forecaster (trained on all stores) is fine-tuned separately
for each store, so every store gets its own local model; the global one must stay as is."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, N_STORES = 14, 7, 3


def store_sales(store, n_days=80):
    t = torch.arange(n_days, dtype=torch.float32)
    weekly = torch.sin(2 * torch.pi * t / 7 + store)
    series = 1.0 + 0.2 * store + 0.5 * weekly + 0.1 * torch.randn(n_days)
    x = torch.stack([series[i:i + LOOKBACK] for i in range(n_days - LOOKBACK - HORIZON)])
    y = torch.stack([series[i + LOOKBACK:i + LOOKBACK + HORIZON]
                     for i in range(n_days - LOOKBACK - HORIZON)])
    return x, y


class LocalFineTuner:
    def __init__(self, global_model, lr=1e-2, steps=4):
        self.global_model = global_model
        self.optimizer = torch.optim.Adam(self.global_model.parameters(), lr=lr)
        self.steps = steps
        self.local_models = {}

    def fine_tune(self, store, x, y):
        local = copy.deepcopy(self.global_model)
        local.train()
        for step in range(self.steps):
            loss = F.mse_loss(local(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        self.local_models[store] = local
        return loss.item()


def main():
    torch.manual_seed(0)
    global_model = nn.Sequential(nn.Linear(LOOKBACK, 32), nn.GELU(), nn.Linear(32, HORIZON))
    tuner = LocalFineTuner(global_model)
    for store in range(N_STORES):
        x, y = store_sales(store)
        final = tuner.fine_tune(store, x, y)
        print(f"store {store} fine-tuned mse {final:.4f}")
    with torch.no_grad():
        checksum = sum(p.sum() for m in tuner.local_models.values() for p in m.parameters())
    print(f"local checksum {checksum.item():.4f}")


if __name__ == "__main__":
    main()
