"""Box utilities for the tiny single-class detector (YOLOv5-style parameterisation)."""
import torch


def make_anchors(sizes):
    return torch.tensor(sizes, dtype=torch.float32).view(1, -1, 1, 1, 2)


def decode(raw, anchors):
    """raw: (B, A, H, W, 5) head output -> (B, A, H, W, 5) with xy offsets in [-0.5, 1.5]
    of the cell, wh in grid units and objectness probability."""
    p = raw.sigmoid()
    p[..., 0:2] = p[..., 0:2] * 2.0 - 0.5
    p[..., 2:4] = (p[..., 2:4] * 2.0) ** 2 * anchors
    return p


def build_targets(boxes, grid, n_anchors):
    """boxes: (B, 4) cx, cy, w, h in grid units; one object per image, assigned to anchor 0
    of the cell holding its centre."""
    b = boxes.size(0)
    obj = torch.zeros(b, n_anchors, grid, grid)
    gi = boxes[:, 0].long().clamp(0, grid - 1)
    gj = boxes[:, 1].long().clamp(0, grid - 1)
    obj[torch.arange(b), 0, gj, gi] = 1.0
    txy = boxes[:, :2] - torch.stack([gi, gj], 1).float()
    return obj, gi, gj, txy, boxes[:, 2:]
