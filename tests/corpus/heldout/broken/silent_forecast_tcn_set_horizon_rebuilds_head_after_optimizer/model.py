"""Small dilated causal-convolution forecaster with a direct multi-horizon output head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv(nn.Module):
    def __init__(self, channels, dilation):
        super().__init__()
        self.pad = 2 * dilation
        self.conv = nn.Conv1d(channels, channels, kernel_size=3, dilation=dilation)

    def forward(self, x):
        return x + F.gelu(self.conv(F.pad(x, (self.pad, 0))))


class TCNForecaster(nn.Module):
    def __init__(self, n_series, channels=16, horizon=1):
        super().__init__()
        self.inp = nn.Conv1d(n_series, channels, kernel_size=1)
        self.blocks = nn.Sequential(CausalConv(channels, 1), CausalConv(channels, 2),
                                    CausalConv(channels, 4))
        self.n_series = n_series
        self.set_horizon(horizon)

    def set_horizon(self, horizon):
        """(Re)configure how many steps ahead the head predicts."""
        self.horizon = horizon
        self.proj = nn.Linear(self.inp.out_channels, self.n_series * horizon)

    def forward(self, x):
        h = self.blocks(self.inp(x))[:, :, -1]
        return self.proj(h).view(-1, self.n_series, self.horizon)
