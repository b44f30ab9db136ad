"""Intermittent-demand forecaster (a neural take on Croston's method): a GRU reads the last
weeks of sales with day-of-week features; one head predicts whether tomorrow has any sale,
the other how many units are sold when it does."""
import torch
import torch.nn as nn

from postprocess import nonnegative


class DemandNet(nn.Module):
    def __init__(self, n_features, hidden=24):
        super().__init__()
        self.gru = nn.GRU(n_features, hidden, batch_first=True)
        self.occurrence_head = nn.Linear(hidden, 1)
        self.size_head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    @nonnegative
    def demand_size(self, h):
        return self.size_head(h).squeeze(-1)

    def forward(self, history):
        _, h = self.gru(history)
        h = h[-1]
        return self.occurrence_head(h).squeeze(-1), self.demand_size(h)

    def expected_demand(self, history):
        occ_logit, size = self(history)
        return torch.sigmoid(occ_logit) * size
