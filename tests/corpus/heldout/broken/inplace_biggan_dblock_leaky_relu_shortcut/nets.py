"""Residual generator/discriminator for short 1-D waveforms (BigGAN-style blocks)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIGNAL_LEN, NZ, CH = 32, 8, 16


class DBlock(nn.Module):
    """Pre-activation residual block with a learned 1x1 shortcut, then 2x downsampling."""

    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.conv1 = nn.Conv1d(in_ch, out_ch, 3, padding=1)
        self.conv2 = nn.Conv1d(out_ch, out_ch, 3, padding=1)
        self.shortcut = nn.Conv1d(in_ch, out_ch, 1)

    def forward(self, x):
        skip = self.shortcut(x)
        h = F.leaky_relu(x, 0.2, inplace=True)
        h = self.conv1(h)
        h = self.conv2(F.leaky_relu(h, 0.2, inplace=True))
        return F.avg_pool1d(h + skip, 2)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv1d(1, CH, 3, padding=1)
        self.blocks = nn.Sequential(DBlock(CH, CH), DBlock(CH, 2 * CH))
        self.head = nn.Linear(2 * CH, 1)

    def forward(self, x):
        h = self.blocks(self.stem(x.unsqueeze(1)))
        return self.head(F.leaky_relu(h, 0.2).sum(dim=2))


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(NZ, CH * SIGNAL_LEN // 4)
        self.up = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv1d(CH, CH, 3, padding=1), nn.ReLU(),
            nn.Upsample(scale_factor=2), nn.Conv1d(CH, 1, 3, padding=1), nn.Tanh(),
        )

    def forward(self, z):
        return self.up(self.fc(z).view(-1, CH, SIGNAL_LEN // 4)).squeeze(1)
