"""Tabular regression (house-price-like synthetic data) with a callback-driven Trainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import GradientAccumulation, LossLogger

N_FEATURES = 10


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.global_step = 0

    def fit(self, loader, epochs):
        for cb in self.callbacks:
            cb.on_fit_start(self)
        for epoch in range(epochs):
            self.model.train()
            for batch_idx, (x, y) in enumerate(loader):
                loss = F.mse_loss(self.model(x).squeeze(-1), y)
                for cb in self.callbacks:
                    cb.on_batch_end(self, batch_idx, loss)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def make_loader(n_batches, batch=16):
    w = torch.randn(N_FEATURES)
    batches = []
    for _ in range(n_batches):
        x = torch.randn(batch, N_FEATURES)
        batches.append((x, x @ w + 0.3 * torch.tanh(x[:, 0] * x[:, 1]) + 0.1 * torch.randn(batch)))
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, 1))
    trainer = Trainer(model, torch.optim.AdamW(model.parameters(), lr=1e-2),
                      callbacks=[GradientAccumulation(every=2), LossLogger()])
    trainer.fit(make_loader(4), epochs=2)
