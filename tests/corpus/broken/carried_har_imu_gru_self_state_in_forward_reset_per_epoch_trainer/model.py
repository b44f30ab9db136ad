"""GRU activity classifier for 6-axis IMU windows (accelerometer xyz + gyroscope xyz)."""
import torch
import torch.nn as nn


class ActivityGRU(nn.Module):
    """Keeps its GRU state between calls so that it can also run on a live sensor stream."""

    def __init__(self, n_channels=6, hidden=24, n_classes=4):
        super().__init__()
        self.norm = nn.LayerNorm(n_channels)
        self.gru = nn.GRU(n_channels, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_classes)
        self._h = None

    def reset_state(self):
        self._h = None

    def forward(self, x):
        out, self._h = self.gru(self.norm(x), self._h)
        return self.head(out.mean(dim=1))
