"""A one-scale, YOLO-flavoured detector for 16x16 toy images."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.stem = nn.Conv2d(1, c, 3, padding=1)
        self.down1 = nn.Conv2d(c, c, 3, stride=2, padding=1)
        self.down2 = nn.Conv2d(c, c, 3, stride=2, padding=1)

    def forward(self, img):
        h = F.relu(self.stem(img))
        h = F.relu(self.down1(h))
        return F.relu(self.down2(h))


class GridNeck(nn.Module):
    """Appends normalised cell coordinates to every feature vector."""

    def __init__(self, c=8):
        super().__init__()
        self.mix = nn.Conv2d(c + 2, c, 1)

    def forward(self, feat):
        b, _, h, w = feat.shape
        gy, gx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
        grid = torch.stack([gx, gy]).float().div(max(h - 1, 1)).expand(b, 2, h, w)
        x = torch.cat([feat, grid], dim=1)
        return F.relu(self.mix(x))


class TinyDetector(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.backbone = Backbone(c)
        self.neck = GridNeck(c)
        self.head = nn.Conv2d(c, 5, 1)  # objectness + (dx, dy, w, h)

    def forward(self, img):
        out = self.head(self.neck(self.backbone(img)))
        return out[:, 0], out[:, 1:]
