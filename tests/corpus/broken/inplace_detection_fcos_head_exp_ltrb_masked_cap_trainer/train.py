"""Tiny FCOS-style detector on synthetic scenes (one bright rectangle per image): conv
backbone with two output levels, anchor-free head in head.py, focal + IoU + centerness
losses. A small Trainer class keeps the model, optimizer and data generator."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from head import FCOSHead

IMG = 32
STRIDES = (4, 8)
RANGES = ((0.0, 8.0), (8.0, 1e8))  # max target distance each level is responsible for


def rect_scenes(n, gen):
    images = 0.1 * torch.randn(n, 1, IMG, IMG, generator=gen)
    boxes = torch.zeros(n, 4)
    for i in range(n):
        w, h = (int(v) for v in torch.randint(6, 20, (2,), generator=gen))
        x0 = int(torch.randint(0, IMG - w, (1,), generator=gen))
        y0 = int(torch.randint(0, IMG - h, (1,), generator=gen))
        images[i, 0, y0:y0 + h, x0:x0 + w] += 1.0
        boxes[i] = torch.tensor([x0, y0, x0 + w, y0 + h], dtype=torch.float32)
    return images, boxes


def locations(size, stride):
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    return torch.stack([xs.flatten(), ys.flatten()], dim=1).float() * stride + stride / 2


def fcos_targets(boxes, stride, size, lo, hi):
    pts = locations(size, stride)                       # (HW, 2)
    x, y = pts[:, 0][None], pts[:, 1][None]             # (1, HW)
    ltrb = torch.stack([x - boxes[:, 0:1], y - boxes[:, 1:2],
                        boxes[:, 2:3] - x, boxes[:, 3:4] - y], dim=-1)  # (B, HW, 4)
    reach = ltrb.max(dim=-1).values
    pos = (ltrb.min(dim=-1).values > 0) & (reach > lo) & (reach <= hi)
    lr, tb = ltrb[..., 0::2], ltrb[..., 1::2]
    ctr = ((lr.min(-1).values / lr.max(-1).values.clamp(min=1e-6))
           * (tb.min(-1).values / tb.max(-1).values.clamp(min=1e-6))).clamp(min=0).sqrt()
    return pos, ltrb, ctr


def iou_loss(pred, target):
    area_p = (pred[:, 0] + pred[:, 2]) * (pred[:, 1] + pred[:, 3])
    area_t = (target[:, 0] + target[:, 2]) * (target[:, 1] + target[:, 3])
    w = torch.min(pred[:, 0], target[:, 0]) + torch.min(pred[:, 2], target[:, 2])
    h = torch.min(pred[:, 1], target[:, 1]) + torch.min(pred[:, 3], target[:, 3])
    inter = w * h
    return -torch.log((inter + 1.0) / (area_p + area_t - inter + 1.0)).mean()


def sigmoid_focal_loss(logits, targets, alpha=0.25, gamma=2.0):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    a_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (a_t * (1 - p_t) ** gamma * ce).sum() / targets.sum().clamp(min=1.0)


class TinyFCOS(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, ch, 3, 2, 1), nn.ReLU())
        self.c3 = nn.Sequential(nn.Conv2d(ch, ch, 3, 2, 1), nn.ReLU())
        self.c4 = nn.Sequential(nn.Conv2d(ch, ch, 3, 2, 1), nn.ReLU())
        self.head = FCOSHead(ch, STRIDES, max_ltrb=(4.0, 4.0))

    def forward(self, x):
        p3 = self.c3(self.stem(x))
        p4 = self.c4(p3)
        return self.head([p3, p4])


class Trainer:
    def __init__(self, batch=12, lr=0.01):
        torch.manual_seed(0)
        self.gen = torch.Generator().manual_seed(5)
        self.model = TinyFCOS()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)
        self.batch = batch

    def losses(self, outs, boxes):
        cls_l, box_l, ctr_l, n_pos = 0.0, 0.0, 0.0, 0
        for (cls, ltrb, ctr), stride, (lo, hi) in zip(outs, STRIDES, RANGES):
            pos, t_ltrb, t_ctr = fcos_targets(boxes, stride, IMG // stride, lo, hi)
            cls_l = cls_l + sigmoid_focal_loss(cls.squeeze(-1), pos.float())
            if pos.any():
                box_l = box_l + iou_loss(ltrb[pos], t_ltrb[pos])
                ctr_l = ctr_l + F.binary_cross_entropy_with_logits(ctr.squeeze(-1)[pos], t_ctr[pos])
                n_pos += int(pos.sum())
        return cls_l, box_l, ctr_l, n_pos

    def step(self):
        images, boxes = rect_scenes(self.batch, self.gen)
        cls_l, box_l, ctr_l, n_pos = self.losses(self.model(images), boxes)
        loss = cls_l + box_l + ctr_l
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), n_pos

    def fit(self, steps=6):
        for i in range(steps):
            loss, n_pos = self.step()
            print(f"step {i} loss {loss:.4f} positives {n_pos}")


if __name__ == "__main__":
    Trainer().fit()
