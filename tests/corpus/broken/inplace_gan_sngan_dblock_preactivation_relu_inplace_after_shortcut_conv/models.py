"""SNGAN-style residual generator and discriminator for 16x16 single-channel images."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import spectral_norm


class GBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.bn1, self.bn2 = nn.BatchNorm2d(cin), nn.BatchNorm2d(cout)
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.conv_sc = nn.Conv2d(cin, cout, 1)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        h = F.interpolate(self.act(self.bn1(x)), scale_factor=2)
        h = self.conv2(self.act(self.bn2(self.conv1(h))))
        return h + self.conv_sc(F.interpolate(x, scale_factor=2))


class Generator(nn.Module):
    def __init__(self, nz=16, ch=16):
        super().__init__()
        self.ch = ch
        self.fc = nn.Linear(nz, 4 * 4 * ch)
        self.blocks = nn.Sequential(GBlock(ch, ch), GBlock(ch, ch))
        self.out = nn.Sequential(nn.BatchNorm2d(ch), nn.ReLU(inplace=True), nn.Conv2d(ch, 1, 3, padding=1), nn.Tanh())

    def forward(self, z):
        return self.out(self.blocks(self.fc(z).view(-1, self.ch, 4, 4)))


class OptimizedDBlock(nn.Module):
    """First discriminator block: no pre-activation on the raw image."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = spectral_norm(nn.Conv2d(cin, cout, 3, padding=1))
        self.conv2 = spectral_norm(nn.Conv2d(cout, cout, 3, padding=1))
        self.conv_sc = spectral_norm(nn.Conv2d(cin, cout, 1))

    def forward(self, x):
        h = F.avg_pool2d(self.conv2(F.relu(self.conv1(x))), 2)
        return h + self.conv_sc(F.avg_pool2d(x, 2))


class DBlock(nn.Module):
    def __init__(self, cin, cout, downsample=True):
        super().__init__()
        self.downsample = downsample
        self.conv1 = spectral_norm(nn.Conv2d(cin, cout, 3, padding=1))
        self.conv2 = spectral_norm(nn.Conv2d(cout, cout, 3, padding=1))
        self.conv_sc = spectral_norm(nn.Conv2d(cin, cout, 1))
        self.act = nn.ReLU(inplace=True)

    def shortcut(self, x):
        sc = self.conv_sc(x)
        return F.avg_pool2d(sc, 2) if self.downsample else sc

    def forward(self, x):
        sc = self.shortcut(x)
        h = self.conv1(self.act(x))
        h = self.conv2(self.act(h))
        if self.downsample:
            h = F.avg_pool2d(h, 2)
        return h + sc


class Discriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.blocks = nn.Sequential(OptimizedDBlock(1, ch), DBlock(ch, ch), DBlock(ch, ch, downsample=False))
        self.fc = spectral_norm(nn.Linear(ch, 1))

    def forward(self, x):
        h = F.relu(self.blocks(x)).sum(dim=(2, 3))
        return self.fc(h).squeeze(-1)
