"""FCOS-style anchor-free head shared by the P3/P4 levels of the tiny detector."""
import torch
import torch.nn as nn


class Scale(nn.Module):
    """Learnable per-level multiplier on the raw regression (as in FCOS)."""

    def __init__(self, init=1.0):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(float(init)))

    def forward(self, x):
        return x * self.scale


class FCOSHead(nn.Module):
    def __init__(self, channels, strides, max_ltrb):
        super().__init__()
        self.tower = nn.Sequential(
            nn.Conv2d(channels, channels, 3, padding=1), nn.GroupNorm(4, channels), nn.ReLU())
        self.cls = nn.Conv2d(channels, 1, 3, padding=1)
        self.reg = nn.Conv2d(channels, 4, 3, padding=1)
        self.ctr = nn.Conv2d(channels, 1, 3, padding=1)
        self.scales = nn.ModuleList(Scale() for _ in strides)
        self.strides = strides
        self.max_ltrb = max_ltrb  # per level, in units of that level's stride

    def forward(self, feats):
        """feats: list of (B, C, H, W) -> list of (cls_logits, ltrb_pixels, ctr_logits),
        each flattened to (B, H*W, k)."""
        outs = []
        for lvl, f in enumerate(feats):
            t = self.tower(f)
            ltrb = self.scales[lvl](self.reg(t)).exp()
            # early in training exp() explodes on a few locations; cap them to the
            # range this level is responsible for so the IoU loss stays finite
            ltrb = ltrb.clamp(max=self.max_ltrb[lvl])
            ltrb = ltrb * self.strides[lvl]
            outs.append(tuple(o.flatten(2).transpose(1, 2)
                              for o in (self.cls(t), ltrb, self.ctr(t))))
        return outs
