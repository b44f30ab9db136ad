"""Stateful LSTM load forecaster in the Keras style: each row of the batch is one feeder's
load series and consecutive windows continue each other, so the trainer keeps (h, c) on
self between windows and cuts their history in place with detach_() before every window.
The state is dropped at the start of each epoch and validation uses its own state."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

FEEDERS, STEPS, WINDOW, EPOCHS = 4, 96, 12, 3


def load_curves(gen):
    t = torch.arange(STEPS + 24, dtype=torch.float32)
    base = 1.0 + 0.3 * torch.rand(FEEDERS, 1, generator=gen)
    daily = torch.sin(2 * math.pi * t / 24 + torch.rand(FEEDERS, 1, generator=gen))
    noise = 0.05 * torch.randn(FEEDERS, t.numel(), generator=gen)
    return (base + 0.4 * daily + noise).unsqueeze(-1)


class LoadForecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, num_layers=2, batch_first=True)
        self.head = nn.Sequential(nn.Linear(hidden, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x, state=None):
        out, state = self.lstm(x, state)
        return self.head(out), state


class StatefulTrainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.hidden = None

    def reset_states(self):
        self.hidden = None

    def train_window(self, x, y):
        if self.hidden is not None:
            for tensor in self.hidden:
                tensor.detach_()
        pred, self.hidden = self.model(x, self.hidden)
        loss = F.mse_loss(pred, y)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def validate(self, series):
        state, errors = None, []
        for start in range(0, series.size(1) - WINDOW, WINDOW):
            pred, state = self.model(series[:, start:start + WINDOW], state)
            errors.append((pred - series[:, start + 1:start + WINDOW + 1]).abs().mean())
        return torch.stack(errors).mean().item()

    def fit(self, train, val):
        for epoch in range(EPOCHS):
            self.reset_states()
            losses = []
            for start in range(0, STEPS - WINDOW, WINDOW):
                x = train[:, start:start + WINDOW]
                y = train[:, start + 1:start + WINDOW + 1]
                losses.append(self.train_window(x, y))
            print(f"epoch {epoch} windows {len(losses)} train mse {sum(losses) / len(losses):.5f} "
                  f"val mae {self.validate(val):.5f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    series = load_curves(gen)
    trainer = StatefulTrainer(LoadForecaster())
    trainer.fit(series[:, :STEPS], series[:, STEPS - 24:])
    h, c = trainer.hidden
    print(f"carried state norm {h.norm().item():.4f} {c.norm().item():.4f}")
    print(f"param checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
