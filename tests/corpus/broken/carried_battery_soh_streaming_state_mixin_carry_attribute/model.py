import torch
import torch.nn as nn

from streaming import StreamingStateMixin


class SOHForecaster(StreamingStateMixin, nn.Module):
    """Predicts state-of-health fade for each pack from per-cycle summaries
    (voltage curve stats, temperature, depth of discharge)."""

    def __init__(self, n_feat=7, dim=20):
        super().__init__()
        self.dim = dim
        self.inp = nn.Linear(n_feat, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, cycles):
        # cycles: (batch, time, n_feat)
        s = self.read_state(cycles.shape[0], self.dim)
        outs = []
        for t in range(cycles.shape[1]):
            s = torch.tanh(self.inp(cycles[:, t]) + self.mix(s))
            outs.append(self.head(s))
        self.write_state(s)
        return torch.cat(outs, dim=1)
