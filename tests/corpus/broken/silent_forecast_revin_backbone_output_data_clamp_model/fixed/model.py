"""Channel-independent MLP forecaster wrapped in reversible instance normalisation (RevIN):
each input window is normalised by its own mean and scale with a learnable affine
transform, and the forecast is mapped back with the inverse transform."""
import torch
import torch.nn as nn


class RevIN(nn.Module):
    def __init__(self, n_series, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.affine_weight = nn.Parameter(torch.ones(n_series))
        self.affine_bias = nn.Parameter(torch.zeros(n_series))

    def normalize(self, x):
        self.mean = x.mean(dim=1, keepdim=True).detach()
        self.stdev = torch.sqrt(x.var(dim=1, keepdim=True, unbiased=False) + self.eps).detach()
        return (x - self.mean) / self.stdev * self.affine_weight + self.affine_bias

    def denormalize(self, y):
        y = (y - self.affine_bias) / (self.affine_weight + self.eps ** 2)
        return y * self.stdev + self.mean


class RevINForecaster(nn.Module):
    def __init__(self, n_series, lookback, horizon, hidden=64, clip=6.0):
        super().__init__()
        self.clip = clip
        self.revin = RevIN(n_series)
        self.backbone = nn.Sequential(nn.Linear(lookback, hidden), nn.GELU(),
                                      nn.Linear(hidden, horizon))

    def forward(self, x):
        z = self.revin.normalize(x)
        y = self.backbone(z.transpose(1, 2)).clamp(-self.clip, self.clip)
        return self.revin.denormalize(y.transpose(1, 2))
