"""Human-activity recognition: walk / run / sit / stairs from 2-second IMU windows.

The windows come from different subjects and recordings and are shuffled, so every window is
an independent sequence.
"""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import ActivityGRU

WINDOW, BATCH, N_WINDOWS = 20, 8, 32


def synthetic_imu(n, generator):
    labels = torch.randint(0, 4, (n,), generator=generator)
    t = torch.arange(WINDOW, dtype=torch.float32) / 10.0
    freq = torch.tensor([1.8, 2.8, 0.0, 1.2])[labels]
    amp = torch.tensor([1.0, 2.0, 0.05, 0.7])[labels]
    base = amp[:, None] * torch.sin(2 * math.pi * freq[:, None] * t)
    x = base[:, :, None].repeat(1, 1, 6) + 0.3 * torch.randn(n, WINDOW, 6, generator=generator)
    x[:, :, 2] += 1.0  # gravity on the z axis
    return x, labels


class Trainer:
    def __init__(self, model, epochs=2):
        self.model = model
        self.epochs = epochs
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
        self.criterion = nn.CrossEntropyLoss()
        self.step = 0

    def on_epoch_start(self, epoch):
        self.model.reset_state()

    def training_step(self, x, y):
        self.model.reset_state()
        logits = self.model(x)
        loss = self.criterion(logits, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return loss.item()

    def fit(self, loader):
        for epoch in range(self.epochs):
            self.on_epoch_start(epoch)
            losses = [self.training_step(x, y) for x, y in loader]
            print(f"epoch {epoch} steps {self.step} mean loss {sum(losses) / len(losses):.4f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x, y = synthetic_imu(N_WINDOWS, gen)
    loader = DataLoader(TensorDataset(x, y), batch_size=BATCH, shuffle=True, drop_last=True,
                        generator=torch.Generator().manual_seed(1))
    Trainer(ActivityGRU()).fit(loader)


if __name__ == "__main__":
    main()
