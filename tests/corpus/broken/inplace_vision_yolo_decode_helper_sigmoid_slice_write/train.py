"""Tiny single-class object detector on synthetic images with one bright square each: a
small conv backbone, a YOLO head with two anchors on a 4x4 grid, and the usual box,
objectness losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from box_ops import build_targets, decode, make_anchors

IMG, GRID, N_ANCHORS = 32, 4, 2
STRIDE = IMG // GRID


def square_scenes(n, gen):
    images = 0.1 * torch.randn(n, 1, IMG, IMG, generator=gen)
    boxes = []
    for i in range(n):
        side = int(torch.randint(6, 14, (1,), generator=gen))
        x0 = int(torch.randint(0, IMG - side, (1,), generator=gen))
        y0 = int(torch.randint(0, IMG - side, (1,), generator=gen))
        images[i, 0, y0:y0 + side, x0:x0 + side] += 1.0
        boxes.append([(x0 + side / 2) / STRIDE, (y0 + side / 2) / STRIDE,
                      side / STRIDE, side / STRIDE])
    return images, torch.tensor(boxes)


class TinyYOLO(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.SiLU(),
            nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.SiLU(),
            nn.Conv2d(32, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.SiLU())
        self.head = nn.Conv2d(32, N_ANCHORS * 5, 1)

    def forward(self, x):
        out = self.head(self.backbone(x))
        b = out.size(0)
        return out.view(b, N_ANCHORS, 5, GRID, GRID).permute(0, 1, 3, 4, 2)


def detection_loss(pred, boxes):
    obj, gi, gj, txy, twh = build_targets(boxes, GRID, N_ANCHORS)
    idx = torch.arange(boxes.size(0))
    cell = pred[idx, 0, gj, gi]
    box_loss = F.mse_loss(cell[:, 0:2], txy) + F.mse_loss(cell[:, 2:4].sqrt(), twh.sqrt())
    obj_loss = F.binary_cross_entropy(pred[..., 4], obj)
    return box_loss + 5.0 * obj_loss, box_loss, obj_loss


def train(epochs=5, batch=16):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(21)
    model = TinyYOLO()
    anchors = make_anchors([[1.0, 1.0], [1.6, 1.6]])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    for epoch in range(epochs):
        images, boxes = square_scenes(batch, gen)
        pred = decode(model(images), anchors)
        loss, box_loss, obj_loss = detection_loss(pred, boxes)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} box {box_loss.item():.4f} "
              f"obj {obj_loss.item():.4f}")


if __name__ == "__main__":
    train()
