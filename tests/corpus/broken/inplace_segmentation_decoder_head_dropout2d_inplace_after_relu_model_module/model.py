"""Tiny encoder-decoder for binary segmentation with a DeepLab-style head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class SegHead(nn.Module):
    def __init__(self, cin, num_classes, p_drop=0.1):
        super().__init__()
        self.block = nn.Sequential(
            nn.Conv2d(cin, cin, 3, padding=1),
            nn.ReLU(),
            nn.Dropout2d(p_drop, inplace=True),
            nn.Conv2d(cin, num_classes, 1),
        )

    def forward(self, x):
        return self.block(x)


class TinySegNet(nn.Module):
    def __init__(self, num_classes=2, width=8):
        super().__init__()
        self.stem = conv_bn_relu(3, width)
        self.down = conv_bn_relu(width, 2 * width)
        self.fuse = conv_bn_relu(3 * width, width)
        self.head = SegHead(width, num_classes)

    def forward(self, x):
        s1 = self.stem(x)
        s2 = self.down(F.max_pool2d(s1, 2))
        up = F.interpolate(s2, size=s1.shape[-2:], mode="bilinear", align_corners=False)
        feat = self.fuse(torch.cat([s1, up], dim=1))
        return self.head(feat)
