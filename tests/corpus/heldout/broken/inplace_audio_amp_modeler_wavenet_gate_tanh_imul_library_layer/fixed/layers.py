"""WaveNet building blocks used by the amp-modelling scripts."""
import torch
import torch.nn as nn


class GatedResidualBlock(nn.Module):
    """Dilated causal conv -> tanh(filter) * sigmoid(gate) -> residual and skip 1x1 convs."""

    def __init__(self, channels, dilation):
        super().__init__()
        self.pad = 2 * dilation
        self.dilated = nn.Conv1d(channels, 2 * channels, kernel_size=3, dilation=dilation)
        self.res = nn.Conv1d(channels, channels, kernel_size=1)
        self.skip = nn.Conv1d(channels, channels, kernel_size=1)

    def forward(self, x):
        h = self.dilated(nn.functional.pad(x, (self.pad, 0)))
        filt, gate = h.chunk(2, dim=1)
        z = torch.tanh(filt) * torch.sigmoid(gate)
        return x + self.res(z), self.skip(z)


class WaveNetStack(nn.Module):
    def __init__(self, channels=16, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.input = nn.Conv1d(1, channels, kernel_size=1)
        self.blocks = nn.ModuleList(GatedResidualBlock(channels, d) for d in dilations)
        self.output = nn.Conv1d(channels, 1, kernel_size=1)

    def forward(self, audio):
        x = self.input(audio)
        skips = 0
        for block in self.blocks:
            x, s = block(x)
            skips = skips + s
        return self.output(torch.relu(skips + x))
