"""ES-RNN style hourly load forecaster: a learnable Holt-Winters seasonal update (gamma) feeds
a small MLP. The series is streamed in consecutive windows and the seasonal factors are kept
on the trainer so that the next window starts from what the last one learned."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PERIOD, WINDOW, HORIZON = 6, 12, 3


def make_series(n_windows):
    t = torch.arange(n_windows * WINDOW + HORIZON, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * t / PERIOD)
    return 10.0 + 0.05 * t + 2.0 * daily + 0.3 * torch.randn_like(t)


class SeasonalMLP(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.raw_gamma = nn.Parameter(torch.tensor(-1.0))
        self.mlp = nn.Sequential(nn.Linear(WINDOW, hidden), nn.Tanh(), nn.Linear(hidden, HORIZON))

    def smooth(self, window, season):
        gamma = torch.sigmoid(self.raw_gamma)
        level = window.mean()
        factors = list(season.unbind(0))
        deseasonalised = []
        for i, y in enumerate(window):
            s = factors[i % PERIOD]
            deseasonalised.append(y - s)
            factors[i % PERIOD] = gamma * (y - level) + (1 - gamma) * s
        return torch.stack(deseasonalised), torch.stack(factors), level

    def forward(self, window, season):
        deseasonalised, new_season, level = self.smooth(window, season)
        base = self.mlp((deseasonalised - level).unsqueeze(0)).squeeze(0)
        return base + level + new_season[:HORIZON], new_season


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.season = torch.zeros(PERIOD)
        self.history = []

    def train_window(self, window, target):
        self.model.train()
        pred, self.season = self.model(window, self.season)
        loss = F.mse_loss(pred, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
        return loss.item()


def main(n_windows=6):
    torch.manual_seed(0)
    series = make_series(n_windows)
    trainer = Trainer(SeasonalMLP())
    for w in range(n_windows):
        start = w * WINDOW
        window = series[start:start + WINDOW]
        target = series[start + WINDOW:start + WINDOW + HORIZON]
        loss = trainer.train_window(window, target)
        gamma = torch.sigmoid(trainer.model.raw_gamma).item()
        print(f"window {w} mse {loss:.4f} gamma {gamma:.4f}")
    print("season", [round(v, 3) for v in trainer.season.tolist()])


if __name__ == "__main__":
    main()
