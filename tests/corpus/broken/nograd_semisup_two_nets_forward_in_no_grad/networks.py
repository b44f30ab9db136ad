"""Two small 2-D segmentation networks of different design, for cross pseudo-supervision."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VNetLite(nn.Module):
    """Encoder-decoder: one down-sampling stage, one up-sampling stage, a skip."""

    def __init__(self, in_ch=1, n_classes=2, width=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(width, 2 * width, 2, stride=2), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * width, width, 2, stride=2)
        self.out = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        skip = self.enc(x)
        return self.out(F.relu(self.up(self.down(skip)) + skip))


class ResNetSeg(nn.Module):
    """Full-resolution residual conv net."""

    def __init__(self, in_ch=1, n_classes=2, width=8):
        super().__init__()
        self.stem = nn.Conv2d(in_ch, width, 3, padding=1)
        self.conv1 = nn.Conv2d(width, width, 3, padding=1)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1)
        self.out = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        h = F.relu(self.stem(x))
        h = F.relu(h + self.conv2(F.relu(self.conv1(h))))
        return self.out(h)
