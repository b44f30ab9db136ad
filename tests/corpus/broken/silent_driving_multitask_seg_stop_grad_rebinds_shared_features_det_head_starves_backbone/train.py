"""Panoptic driving perception in miniature (a HybridNets-style multi-task net): one conv
backbone, a dense vehicle-detection head (objectness + box size per cell) and a drivable-area
segmentation head. The segmentation labels of the mosaic-augmented batches are unreliable,
so the config asks for the segmentation loss to be kept out of the shared backbone."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    size: int = 16
    width: int = 16
    batch: int = 8
    steps: int = 6
    lr: float = 3e-3
    seg_weight: float = 0.5
    seg_stop_grad: bool = True


class PerceptionNet(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.seg_stop_grad = cfg.seg_stop_grad
        self.backbone = nn.Sequential(
            nn.Conv2d(3, cfg.width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(cfg.width, cfg.width, 3, stride=2, padding=1), nn.ReLU())
        self.det_head = nn.Conv2d(cfg.width, 3, 1)          # objectness, log w, log h
        self.seg_head = nn.Sequential(
            nn.Conv2d(cfg.width, 2, 1), nn.Upsample(scale_factor=2, mode="bilinear"))

    def forward(self, images):
        feats = self.backbone(images)
        if self.seg_stop_grad:
            feats = feats.detach()  # seg loss must not reach the backbone
        return self.det_head(feats), self.seg_head(feats)


def make_batch(cfg: Config, generator: torch.Generator):
    images = 0.1 * torch.randn(cfg.batch, 3, cfg.size, cfg.size, generator=generator)
    road = torch.zeros(cfg.batch, cfg.size, cfg.size, dtype=torch.long)
    road[:, cfg.size // 2:, :] = 1
    images[:, 1] += 0.5 * road
    cells = cfg.size // 2
    objectness = torch.zeros(cfg.batch, cells, cells)
    sizes = torch.zeros(cfg.batch, 2, cells, cells)
    for b in range(cfg.batch):
        cy, cx = torch.randint(1, cells - 1, (2,), generator=generator).tolist()
        h, w = torch.randint(1, 3, (2,), generator=generator).tolist()
        images[b, 0, 2 * cy - h:2 * cy + h, 2 * cx - w:2 * cx + w] += 1.0
        objectness[b, cy, cx] = 1.0
        sizes[b, :, cy, cx] = torch.tensor([float(h), float(w)]).log()
    return images, objectness, sizes, road


def detection_loss(det, objectness, sizes):
    obj_loss = F.binary_cross_entropy_with_logits(det[:, 0], objectness, pos_weight=torch.tensor(20.0))
    positive = objectness.bool().unsqueeze(1).expand_as(sizes)
    size_loss = F.l1_loss(det[:, 1:][positive], sizes[positive])
    return obj_loss + size_loss


def main(cfg: Config):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = PerceptionNet(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        images, objectness, sizes, road = make_batch(cfg, g)
        det, seg = model(images)
        det_loss = detection_loss(det, objectness, sizes)
        seg_loss = F.cross_entropy(seg, road)
        loss = det_loss + cfg.seg_weight * seg_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} det {det_loss.item():.4f} seg {seg_loss.item():.4f}")
    print(f"backbone checksum {sum(p.sum() for p in model.backbone.parameters()).item():.4f}")


if __name__ == "__main__":
    main(Config())
