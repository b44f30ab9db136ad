"""Multi-task dense prediction on synthetic scenes: one shared conv encoder, a
foreground-segmentation head and a depth-regression head, weighted by callbacks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import DynamicWeightAverage, StepLogger

SIZE, BATCH, STEPS = 12, 8, 10


class SceneNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(),
        )
        self.seg_head = nn.Conv2d(c, 1, 1)
        self.depth_head = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        feats = self.encoder(x)
        return self.seg_head(feats), self.depth_head(feats)


class MultiTaskTrainer:
    task_names = ("seg", "depth")

    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
        self.task_weights = [1.0, 1.0]
        self.step = 0

    def train_step(self, images, masks, depth):
        seg_logits, depth_pred = self.model(images)
        task_losses = [F.binary_cross_entropy_with_logits(seg_logits, masks),
                       F.l1_loss(depth_pred, depth)]
        loss = sum(w * l for w, l in zip(self.task_weights, task_losses))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for cb in self.callbacks:
            cb.on_train_batch_end(self, task_losses)
        self.step += 1


def scenes(gen):
    ys, xs = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    while True:
        cy, cx = (torch.rand(2, BATCH, 1, 1, generator=gen) * SIZE)
        masks = (((ys - cy) ** 2 + (xs - cx) ** 2) < 9.0).float()[:, None]
        depth = (1.0 - 0.5 * masks) + 0.02 * ys[None, None]
        images = torch.cat([masks, depth, torch.rand(BATCH, 1, SIZE, SIZE, generator=gen)], dim=1)
        yield images + 0.1 * torch.randn(images.shape, generator=gen), masks, depth


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = MultiTaskTrainer(SceneNet(), [DynamicWeightAverage(n_tasks=2), StepLogger()])
    data = scenes(torch.Generator().manual_seed(2))
    for _ in range(STEPS):
        trainer.train_step(*next(data))
    print("final task weights", [round(w, 3) for w in trainer.task_weights])
