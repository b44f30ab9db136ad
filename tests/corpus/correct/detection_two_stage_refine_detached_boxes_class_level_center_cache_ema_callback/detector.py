"""Tiny two-stage box refiner: stage one decodes boxes from learned-shape anchors, stage two
samples the feature map at each stage-one box and predicts a correction. As in Cascade /
Sparse R-CNN, the stage-one boxes enter stage two detached, so each stage is trained by its
own loss. Anchor centres are cached per feature-map size in a class-level dict."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AnchorGrid(nn.Module):
    _centres = {}  # (h, w, stride) -> (h*w, 1, 2); built from integers only

    def __init__(self, shapes=((4.0, 4.0), (6.0, 3.0), (3.0, 6.0))):
        super().__init__()
        self.log_wh = nn.Parameter(torch.tensor(shapes).log())

    def forward(self, h, w, stride):
        key = (h, w, stride)
        if key not in AnchorGrid._centres:
            ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            grid = torch.stack([xs, ys], -1).reshape(-1, 1, 2).float()
            AnchorGrid._centres[key] = grid * stride + stride / 2
        centres = AnchorGrid._centres[key]
        wh = self.log_wh.exp().expand(centres.shape[0], -1, -1)
        return torch.cat([centres.expand_as(wh), wh], dim=-1).reshape(-1, 4)


def decode(deltas, ref):
    return torch.cat([ref[..., :2] + deltas[..., :2] * ref[..., 2:],
                      ref[..., 2:] * deltas[..., 2:].clamp(max=3.0).exp()], dim=-1)


class TwoStageDetector(nn.Module):
    def __init__(self, img=16, stride=4):
        super().__init__()
        self.img, self.stride = img, stride
        self.anchors = AnchorGrid()
        a = self.anchors.log_wh.shape[0]
        self.backbone = nn.Sequential(nn.Conv2d(1, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU())
        self.obj = nn.Conv2d(16, a, 1)
        self.box1 = nn.Conv2d(16, 4 * a, 1)
        self.box2 = nn.Sequential(nn.Linear(16 + 4, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, images):
        f = self.backbone(images)
        n, c, h, w = f.shape
        anchors = self.anchors(h, w, self.stride)
        logits = self.obj(f).permute(0, 2, 3, 1).reshape(n, -1)
        boxes1 = decode(self.box1(f).permute(0, 2, 3, 1).reshape(n, -1, 4), anchors)
        ref = boxes1.detach()
        grid = (ref[..., None, :2] / self.img) * 2 - 1                      # (n, K, 1, 2)
        roi = F.grid_sample(f, grid, align_corners=False).squeeze(-1).transpose(1, 2)
        boxes2 = decode(0.1 * self.box2(torch.cat([roi, ref / self.img], -1)), ref)
        return logits, anchors, boxes1, boxes2


def iou(a, b):
    a1, a2 = a[..., :2] - a[..., 2:] / 2, a[..., :2] + a[..., 2:] / 2
    b1, b2 = b[..., :2] - b[..., 2:] / 2, b[..., :2] + b[..., 2:] / 2
    inter = (torch.min(a2, b2) - torch.max(a1, b1)).clamp(min=0).prod(-1)
    return inter / (a[..., 2:].prod(-1) + b[..., 2:].prod(-1) - inter)
