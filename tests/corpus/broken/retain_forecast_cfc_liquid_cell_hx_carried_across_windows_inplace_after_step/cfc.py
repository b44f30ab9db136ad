"""A small closed-form continuous-time (CfC) recurrent layer, written after the ncps
formulation: the new state interpolates between two feed-forward heads with a
time-dependent sigmoid gate, so irregular sampling intervals enter through `timespans`."""
import torch
import torch.nn as nn


class CfCCell(nn.Module):
    def __init__(self, input_size, hidden_size, backbone_units=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Linear(input_size + hidden_size, backbone_units), nn.LeakyReLU())
        self.ff1 = nn.Linear(backbone_units, hidden_size)
        self.ff2 = nn.Linear(backbone_units, hidden_size)
        self.time_a = nn.Linear(backbone_units, hidden_size)
        self.time_b = nn.Linear(backbone_units, hidden_size)

    def forward(self, x, h, ts):
        z = self.backbone(torch.cat([x, h], dim=1))
        ff1 = torch.tanh(self.ff1(z))
        ff2 = torch.tanh(self.ff2(z))
        t_interp = torch.sigmoid(self.time_a(z) * ts + self.time_b(z))
        return ff1 * (1.0 - t_interp) + t_interp * ff2


class CfC(nn.Module):
    """Runs a CfCCell over a (batch, time, features) sequence, from hx when one is given."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.cell = CfCCell(input_size, hidden_size)

    def forward(self, x, hx=None, timespans=None):
        batch, steps, _ = x.shape
        h = x.new_zeros(batch, self.hidden_size) if hx is None else hx
        outputs = []
        for t in range(steps):
            ts = 1.0 if timespans is None else timespans[:, t].unsqueeze(1)
            h = self.cell(x[:, t], h, ts)
            outputs.append(h)
        return torch.stack(outputs, dim=1), h
