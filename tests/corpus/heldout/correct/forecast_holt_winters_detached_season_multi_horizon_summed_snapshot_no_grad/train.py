"""Streaming load forecaster: learnable Holt-Winters seasonal smoothing (gamma) feeding a
multi-horizon MLP. The seasonal factors carried between windows are detached at the window
boundary, per-horizon losses are summed into one backward, and the snapshot forecasts kept for
the final ensemble are computed under no_grad."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PERIOD, WINDOW, HORIZON = 6, 12, 3


class SeasonalForecaster(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.raw_gamma = nn.Parameter(torch.tensor(-1.0))
        self.encoder = nn.Sequential(nn.Linear(WINDOW, hidden), nn.Tanh(),
                                     nn.Linear(hidden, hidden), nn.Tanh())
        self.heads = nn.ModuleList(nn.Linear(hidden, 1) for _ in range(HORIZON))

    def forward(self, window, season):
        gamma = torch.sigmoid(self.raw_gamma)
        level = window.mean()
        factors = list(season.unbind(0))
        deseasonalised = []
        for i, y in enumerate(window):
            s = factors[i % PERIOD]
            deseasonalised.append(y - s)
            factors[i % PERIOD] = gamma * (y - level) + (1 - gamma) * s
        new_season = torch.stack(factors)
        z = self.encoder((torch.stack(deseasonalised) - level).unsqueeze(0))
        preds = [head(z).squeeze() + level + new_season[h] for h, head in enumerate(self.heads)]
        return preds, new_season


def main(n_windows=7):
    torch.manual_seed(0)
    t = torch.arange(n_windows * WINDOW + HORIZON, dtype=torch.float32)
    series = 10 + 0.05 * t + 2 * torch.sin(2 * math.pi * t / PERIOD) + 0.3 * torch.randn_like(t)
    model = SeasonalForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    season = torch.zeros(PERIOD)
    snapshots = []
    for w in range(n_windows):
        window = series[w * WINDOW:(w + 1) * WINDOW]
        target = series[(w + 1) * WINDOW:(w + 1) * WINDOW + HORIZON]
        preds, new_season = model(window, season)
        losses = [F.mse_loss(p, target[h]) for h, p in enumerate(preds)]
        optimizer.zero_grad()
        sum(losses).backward()
        optimizer.step()
        season = new_season.detach()
        with torch.no_grad():
            snap, _ = model(window, season)
            snapshots.append(torch.stack(snap))
        print(f"window {w} " + " ".join(f"h{h + 1} {l.item():.4f}" for h, l in enumerate(losses)))
    ensemble = torch.stack(snapshots[-3:]).mean(dim=0)
    print("ensemble", [round(v, 3) for v in ensemble.tolist()],
          "gamma", round(torch.sigmoid(model.raw_gamma).item(), 4))


if __name__ == "__main__":
    main()
