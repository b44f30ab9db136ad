"""Building blocks of the image transformation network. Instance norm is written out by hand
(the affine part is a per-channel scale and shift) and works in place on the conv output to
keep activation memory down at full resolution."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def instance_norm_(x, eps=1e-5):
    mean = x.mean(dim=(2, 3), keepdim=True)
    var = x.var(dim=(2, 3), keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps)


class ConvINReLU(nn.Module):
    def __init__(self, cin, cout, kernel, stride=1, upsample=False, act=True):
        super().__init__()
        self.upsample = upsample
        self.pad = nn.ReflectionPad2d(kernel // 2)
        self.conv = nn.Conv2d(cin, cout, kernel, stride)
        self.scale = nn.Parameter(torch.ones(1, cout, 1, 1))
        self.shift = nn.Parameter(torch.zeros(1, cout, 1, 1))
        self.act = act

    def forward(self, x):
        if self.upsample:
            x = F.interpolate(x, scale_factor=2, mode="nearest")
        h = instance_norm_(self.conv(self.pad(x)))
        h = h * self.scale + self.shift
        return F.relu(h) if self.act else h


class ResidualBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.block = nn.Sequential(ConvINReLU(ch, ch, 3), ConvINReLU(ch, ch, 3, act=False))

    def forward(self, x):
        return x + self.block(x)
