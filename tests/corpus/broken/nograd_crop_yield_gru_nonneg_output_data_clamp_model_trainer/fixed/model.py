"""Field-level crop yield regressor: a GRU over the season's satellite/weather series plus
a static soil branch."""
import torch
import torch.nn as nn


class YieldRegressor(nn.Module):
    def __init__(self, n_series, n_soil, hidden=16, mean_yield=5.0):
        super().__init__()
        self.season = nn.GRU(n_series, hidden, batch_first=True)
        self.soil = nn.Linear(n_soil, hidden)
        self.head = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        nn.init.constant_(self.head[2].bias, mean_yield)  # start at the regional mean (t/ha)

    def forward(self, series, soil):
        _, h_last = self.season(series)
        z = torch.cat([h_last[-1], torch.relu(self.soil(soil))], dim=1)
        raw = self.head(z).squeeze(1)
        # yields are physically non-negative
        tons_per_ha = raw.clamp(min=0.0)
        return tons_per_ha
