import torch
import torch.nn as nn


class ResidualUnit(nn.Module):
    """Dilated conv unit with a 1x1 skip tap, as in WaveNet-style neural vocoders."""

    def __init__(self, channels, dilation):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 3, padding=dilation, dilation=dilation)
        self.skip = nn.Conv1d(channels, channels, 1)
        self.act = nn.LeakyReLU(0.1)
        self.out = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        h = self.conv(x)
        skip = self.skip(h)
        h = self.act(h)
        return x + self.out(h), skip


class TinyVocoder(nn.Module):
    def __init__(self, n_mels=16, channels=24, upsample=4):
        super().__init__()
        self.upsample = nn.ConvTranspose1d(n_mels, channels, upsample * 2, stride=upsample,
                                           padding=upsample // 2)
        self.units = nn.ModuleList([ResidualUnit(channels, d) for d in (1, 2, 4)])
        self.post = nn.Conv1d(channels, 1, 1)

    def forward(self, mel):
        x = self.upsample(mel)
        skips = 0
        for unit in self.units:
            x, s = unit(x)
            skips = skips + s
        return torch.tanh(self.post(skips + x))
