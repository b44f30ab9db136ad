"""Day-ahead electricity load forecaster.

A stateful GRU reads the last 12 hourly readings (load, temperature, hour-of-day encoding) of
each feeder and predicts the next 4 hours. Windows are fed in chronological order, and the
model keeps its GRU state between calls so that it sees more than 12 hours of history.
"""
import math

import torch
import torch.nn as nn

N_FEEDERS, WINDOW, HORIZON, N_FEATURES, HIDDEN = 6, 12, 4, 4, 24


class LoadForecaster(nn.Module):
    def __init__(self, n_features=N_FEATURES, hidden=HIDDEN, horizon=HORIZON):
        super().__init__()
        self.rnn = nn.GRU(n_features, hidden, batch_first=True)
        self.head = nn.Sequential(nn.Linear(hidden, 16), nn.ReLU(), nn.Linear(16, horizon))
        self.hidden = None

    def reset_state(self):
        self.hidden = None

    def forward(self, x):
        if self.hidden is None:
            self.hidden = x.new_zeros(1, x.size(0), self.rnn.hidden_size)
        out, self.hidden = self.rnn(x, self.hidden.detach())
        return self.head(out[:, -1])


def synthetic_load(n_feeders, hours):
    t = torch.arange(hours, dtype=torch.float32)
    phase = torch.rand(n_feeders, 1) * 2 * math.pi
    temp = 15 + 8 * torch.sin(2 * math.pi * t / 24 + phase) + torch.randn(n_feeders, hours)
    load = 1.0 + 0.04 * temp + 0.3 * torch.sin(2 * math.pi * (t - 7) / 24)
    load = load + 0.05 * torch.randn(n_feeders, hours)
    hour_sin = torch.sin(2 * math.pi * t / 24).expand(n_feeders, hours)
    hour_cos = torch.cos(2 * math.pi * t / 24).expand(n_feeders, hours)
    feats = torch.stack([load, (temp - 15) / 8, hour_sin, hour_cos], dim=-1)
    return feats, load


class Trainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.SmoothL1Loss()
        self.history = []

    def fit_epoch(self, feats, load):
        self.model.reset_state()
        for start in range(0, feats.size(1) - WINDOW - HORIZON + 1, WINDOW):
            x = feats[:, start:start + WINDOW]
            y = load[:, start + WINDOW:start + WINDOW + HORIZON]
            pred = self.model(x)
            loss = self.loss_fn(pred, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.history.append(loss.item())
        return sum(self.history[-4:]) / len(self.history[-4:])


def main():
    torch.manual_seed(7)
    feats, load = synthetic_load(N_FEEDERS, hours=5 * WINDOW + HORIZON)
    trainer = Trainer(LoadForecaster())
    for epoch in range(2):
        recent = trainer.fit_epoch(feats, load)
        print(f"epoch {epoch} windows {len(trainer.history)} recent loss {recent:.5f}")


if __name__ == "__main__":
    main()
