"""A StyleGAN-flavoured generator for 1-D signals (mapping network + modulated synthesis)
and a small critic."""
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, z_dim=16, w_dim=16, length=32):
        super().__init__()
        self.mapping = nn.Sequential(nn.Linear(z_dim, w_dim), nn.LeakyReLU(0.2),
                                     nn.Linear(w_dim, w_dim))
        self.const = nn.Parameter(torch.randn(1, 8, length))
        self.style = nn.Linear(w_dim, 8)
        self.conv = nn.Conv1d(8, 8, 3, padding=1)
        self.to_signal = nn.Conv1d(8, 1, 1)
        self.register_buffer("w_avg", torch.zeros(w_dim))

    def forward(self, z, psi=1.0):
        with torch.no_grad():
            w = self.mapping(z)
            # running mean of w for the truncation trick at sampling time
            self.w_avg.lerp_(w.mean(0), 0.01)
        if psi != 1.0:
            w = self.w_avg + psi * (w - self.w_avg)
        x = self.const.expand(len(z), -1, -1) * (1 + self.style(w))[:, :, None]
        x = torch.nn.functional.leaky_relu(self.conv(x), 0.2)
        return self.to_signal(x).squeeze(1)


class Critic(nn.Module):
    def __init__(self, length=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(length, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)
