"""Binary lesion segmentation on synthetic 12x12 scans with a Tversky loss (false
negatives weighted more than false positives). The loss is computed on the binarised
prediction so that training optimises exactly what the validation metric measures."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn

SIZE = 12


@dataclass
class SegConfig:
    threshold: float = 0.5
    alpha: float = 0.3  # weight of false positives
    beta: float = 0.7  # weight of false negatives
    lr: float = 1e-2
    epochs: int = 3
    batches_per_epoch: int = 2
    batch_size: int = 8
    log: list = field(default_factory=list)


def synthetic_scans(n, gen):
    yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    centers = torch.randint(3, SIZE - 3, (n, 2), generator=gen)
    radii = torch.randint(2, 4, (n, 1, 1), generator=gen)
    d2 = (yy - centers[:, 0, None, None]) ** 2 + (xx - centers[:, 1, None, None]) ** 2
    masks = (d2 <= radii ** 2).float().unsqueeze(1)
    images = masks * 0.8 + 0.35 * torch.randn(n, 1, SIZE, SIZE, generator=gen)
    return images, masks


def tversky_loss(pred, target, alpha, beta, smooth=1.0):
    tp = (pred * target).sum()
    fp = (pred * (1 - target)).sum()
    fn = ((1 - pred) * target).sum()
    return 1 - (tp + smooth) / (tp + alpha * fp + beta * fn + smooth)


class SegTrainer:
    def __init__(self, cfg: SegConfig):
        self.cfg = cfg
        self.model = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 1, 1))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)

    def training_step(self, images, masks):
        probs = torch.sigmoid(self.model(images))
        pred_mask = (probs >= self.cfg.threshold).float()
        loss = tversky_loss(pred_mask, masks, self.cfg.alpha, self.cfg.beta)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def dice(self, images, masks):
        self.model.eval()
        pred = (torch.sigmoid(self.model(images)) >= self.cfg.threshold).float()
        self.model.train()
        return (2 * (pred * masks).sum() / (pred.sum() + masks.sum() + 1e-6)).item()

    def fit(self, gen):
        val_images, val_masks = synthetic_scans(16, gen)
        for epoch in range(self.cfg.epochs):
            for _ in range(self.cfg.batches_per_epoch):
                loss = self.training_step(*synthetic_scans(self.cfg.batch_size, gen))
            self.cfg.log.append((epoch, loss, self.dice(val_images, val_masks)))
            print("epoch {} tversky {:.4f} val dice {:.3f}".format(*self.cfg.log[-1]))


if __name__ == "__main__":
    torch.manual_seed(0)
    SegTrainer(SegConfig()).fit(torch.Generator().manual_seed(0))
