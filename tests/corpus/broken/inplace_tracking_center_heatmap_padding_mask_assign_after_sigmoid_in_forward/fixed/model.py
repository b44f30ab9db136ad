"""CenterTrack-style point tracker: previous and current search crops are stacked on the
channel axis and the net predicts a centre heatmap plus a displacement to the previous
position."""
import torch
import torch.nn as nn


class CenterTracker(nn.Module):
    def __init__(self, width=12):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        )
        self.heat_head = nn.Conv2d(width, 1, 1)
        self.motion_head = nn.Conv2d(width, 2, 1)
        nn.init.constant_(self.heat_head.bias, -2.19)

    def forward(self, prev_crop, crop, prev_heat, valid):
        feats = self.backbone(torch.cat([prev_crop, crop, prev_heat], dim=1))
        heat = torch.sigmoid(self.heat_head(feats))
        # the crop was zero-padded where it ran past the frame: no target can be there
        heat = heat.masked_fill(~valid, 0.0)
        return heat, self.motion_head(feats)
