"""Gated WaveNet blocks (out-of-place gating) and a forward hook that records activation
statistics as plain floats."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedBlock(nn.Module):
    def __init__(self, channels, dilation):
        super().__init__()
        self.pad = 2 * dilation
        self.dilated = nn.Conv1d(channels, 2 * channels, 3, dilation=dilation)
        self.res = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        filt, gate = self.dilated(F.pad(x, (self.pad, 0))).chunk(2, dim=1)
        z = torch.tanh(filt) * torch.sigmoid(gate)
        return x + self.res(z)


class ActivationStats:
    def __init__(self):
        self.rms = {}

    def hook(self, name):
        def record(module, inputs, output):
            self.rms.setdefault(name, []).append(output.detach().pow(2).mean().sqrt().item())
        return record
