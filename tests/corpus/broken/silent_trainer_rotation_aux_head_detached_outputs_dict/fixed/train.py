"""Texture classifier on small grey-scale patches with a self-supervised auxiliary task:
a rotation head predicts which of four rotations was applied to a second, rotated copy of
the batch. A small Lightning-like Trainer runs the steps and hands each step's detached
outputs to metric callbacks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, SIZE, BATCH, AUX_WEIGHT = 3, 8, 32, 0.5


class RotAuxNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.cls_head = nn.Linear(4 * width, N_CLASSES)
        self.rot_head = nn.Linear(4 * width, 4)

    def forward(self, x, x_rot):
        return {"logits": self.cls_head(self.backbone(x)),
                "rot_logits": self.rot_head(self.backbone(x_rot))}


class AccuracyCallback:
    def __init__(self):
        self.hits = {"cls": 0, "rot": 0}
        self.seen = 0

    def on_batch_end(self, outputs, batch):
        _, y, _, rot_y = batch
        self.hits["cls"] += int((outputs["logits"].argmax(1) == y).sum())
        self.hits["rot"] += int((outputs["rot_logits"].argmax(1) == rot_y).sum())
        self.seen += len(y)


class Trainer:
    def __init__(self, model, callbacks, lr=5e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def training_step(self, batch):
        x, y, x_rot, rot_y = batch
        out = self.model(x, x_rot)
        outputs = {k: v.detach() for k, v in out.items()}
        cls_loss = F.cross_entropy(out["logits"], y)
        rot_loss = F.cross_entropy(out["rot_logits"], rot_y)
        return cls_loss + AUX_WEIGHT * rot_loss, outputs

    def fit(self, batches):
        for i, batch in enumerate(batches):
            loss, outputs = self.training_step(batch)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for cb in self.callbacks:
                cb.on_batch_end(outputs, batch)
            print(f"step {i} loss {loss.item():.4f}")


def texture_batches(n):
    """Class 0: horizontal stripes, 1: vertical stripes, 2: checkerboard; plus noise."""
    r = torch.arange(SIZE)
    patterns = torch.stack([(r[:, None] % 2).expand(SIZE, SIZE),
                            (r[None, :] % 2).expand(SIZE, SIZE),
                            (r[:, None] + r[None, :]) % 2]).float()
    for _ in range(n):
        y = torch.randint(0, N_CLASSES, (BATCH,))
        x = patterns[y][:, None] + 0.3 * torch.randn(BATCH, 1, SIZE, SIZE)
        x[:, :, :2, :2] += 1.0  # a bright corner makes the rotation recoverable
        rot_y = torch.randint(0, 4, (BATCH,))
        x_rot = torch.stack([torch.rot90(img, int(k), dims=(1, 2)) for img, k in zip(x, rot_y)])
        yield x, y, x_rot, rot_y


acc = AccuracyCallback()
Trainer(RotAuxNet(), [acc]).fit(texture_batches(6))
print(f"train acc cls {acc.hits['cls'] / acc.seen:.3f} rot {acc.hits['rot'] / acc.seen:.3f}")
