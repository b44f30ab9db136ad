"""Single-level anchor-based detector (a RetinaNet-style head on a tiny backbone).

The anchor shapes are learned: AnchorGenerator keeps log(width, height) of every anchor
as a parameter, and the box loss moves them towards the shapes of the objects. The
generator caches its anchors per feature-map size, like torchvision's AnchorGenerator
once did, because rebuilding the grid every forward looked wasteful.
"""
import torch
import torch.nn as nn


class AnchorGenerator(nn.Module):
    _cache = {}  # (feat_h, feat_w, stride) -> (H*W, 1, 2) anchor centres (no parameters)

    def __init__(self, shapes=((4.0, 4.0), (6.0, 3.0), (3.0, 6.0))):
        super().__init__()
        self.log_wh = nn.Parameter(torch.tensor(shapes).log())

    @property
    def num_anchors(self):
        return self.log_wh.shape[0]

    def forward(self, feat_h, feat_w, stride):
        key = (feat_h, feat_w, stride)
        if key not in self._cache:
            ys, xs = torch.meshgrid(torch.arange(feat_h), torch.arange(feat_w), indexing="ij")
            centers = torch.stack([xs, ys], -1).reshape(-1, 1, 2).float() * stride + stride / 2
            AnchorGenerator._cache[key] = centers
        centers = self._cache[key]
        wh = self.log_wh.exp()  # the learned shapes change every step: build them every forward
        anchors = torch.cat([centers.expand(-1, self.num_anchors, -1),
                             wh.expand(centers.shape[0], -1, -1)], dim=-1)
        return anchors.reshape(-1, 4)


class TinyDetector(nn.Module):
    def __init__(self, stride=4):
        super().__init__()
        self.stride = stride
        self.anchor_gen = AnchorGenerator()
        a = self.anchor_gen.num_anchors
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.cls_head = nn.Conv2d(16, a, 1)
        self.box_head = nn.Conv2d(16, 4 * a, 1)

    def forward(self, images):
        feats = self.backbone(images)
        n, _, h, w = feats.shape
        anchors = self.anchor_gen(h, w, self.stride)
        logits = self.cls_head(feats).permute(0, 2, 3, 1).reshape(n, -1)
        deltas = self.box_head(feats).permute(0, 2, 3, 1).reshape(n, -1, 4)
        return logits, deltas, anchors


def decode(deltas, anchors):
    cxcy = anchors[:, :2] + deltas[..., :2] * anchors[:, 2:]
    wh = anchors[:, 2:] * deltas[..., 2:].clamp(max=3.0).exp()
    return torch.cat([cxcy, wh], dim=-1)


def box_iou_cxcywh(a, b):
    a1, a2 = a[..., :2] - a[..., 2:] / 2, a[..., :2] + a[..., 2:] / 2
    b1, b2 = b[..., :2] - b[..., 2:] / 2, b[..., :2] + b[..., 2:] / 2
    inter = (torch.min(a2, b2) - torch.max(a1, b1)).clamp(min=0).prod(-1)
    return inter / (a[..., 2:].prod(-1) + b[..., 2:].prod(-1) - inter)
