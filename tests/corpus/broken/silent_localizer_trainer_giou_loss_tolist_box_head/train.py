"""Single-object localisation on 24x24 synthetic images (a filled square or a ring on noise):
a small CNN with a class head and a box head, trained by a LocalizerTrainer with cross-entropy
plus a GIoU box loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, BATCH = 24, 32


def make_batch(n):
    images = 0.2 * torch.randn(n, 1, SIZE, SIZE)
    labels = torch.randint(0, 2, (n,))
    boxes = torch.zeros(n, 4)
    for i in range(n):
        side = int(torch.randint(6, 12, ()))
        x0, y0 = (int(v) for v in torch.randint(0, SIZE - side, (2,)))
        images[i, 0, y0:y0 + side, x0:x0 + side] += 1.0
        if labels[i] == 1:
            images[i, 0, y0 + 2:y0 + side - 2, x0 + 2:x0 + side - 2] -= 1.0
        boxes[i] = torch.tensor([x0 + side / 2, y0 + side / 2, side, side]) / SIZE
    return images, labels, boxes


class Localizer(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
        self.cls_head = nn.Linear(16 * 6 * 6, n_classes)
        self.box_head = nn.Linear(16 * 6 * 6, 4)

    def forward(self, x):
        feats = self.backbone(x)
        return self.cls_head(feats), torch.sigmoid(self.box_head(feats))


def giou_loss(pred, target):
    """Mean 1 - GIoU over the batch; boxes are (cx, cy, w, h) in [0, 1]."""
    total = 0.0
    for (pcx, pcy, pw, ph), (tcx, tcy, tw, th) in zip(pred.tolist(), target.tolist()):
        px0, py0, px1, py1 = pcx - pw / 2, pcy - ph / 2, pcx + pw / 2, pcy + ph / 2
        tx0, ty0, tx1, ty1 = tcx - tw / 2, tcy - th / 2, tcx + tw / 2, tcy + th / 2
        inter = max(0.0, min(px1, tx1) - max(px0, tx0)) * max(0.0, min(py1, ty1) - max(py0, ty0))
        union = pw * ph + tw * th - inter
        hull = (max(px1, tx1) - min(px0, tx0)) * (max(py1, ty1) - min(py0, ty0))
        total += 1 - (inter / union - (hull - union) / hull)
    return torch.tensor(total / len(pred))


class LocalizerTrainer:
    def __init__(self, model, lr=3e-3, box_weight=2.0):
        self.model = model
        self.box_weight = box_weight
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def training_step(self, images, labels, boxes):
        logits, pred_boxes = self.model(images)
        cls_loss = F.cross_entropy(logits, labels)
        box_loss = giou_loss(pred_boxes, boxes)
        loss = cls_loss + self.box_weight * box_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return cls_loss.item(), box_loss.item()

    def fit(self, steps):
        for step in range(steps):
            cls_loss, box_loss = self.training_step(*make_batch(BATCH))
            print(f"step {step} cls {cls_loss:.4f} giou {box_loss:.4f}")


trainer = LocalizerTrainer(Localizer())
trainer.fit(steps=8)
