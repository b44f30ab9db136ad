"""Small CNN on synthetic 'shape' images, trained by a minimal callback-driven Trainer.
The loss mixes hard-label cross-entropy with online label smoothing (callbacks.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import EpochLogger, OnlineLabelSmoothing

N_CLASSES, BATCH, STEPS, EPOCHS = 5, 20, 3, 2


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 12, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(12, 24, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
            nn.Flatten(),
        )
        self.head = nn.Linear(24 * 4, N_CLASSES)

    def forward(self, x):
        return self.head(self.body(x))


def make_batches(seed):
    g = torch.Generator().manual_seed(seed)
    templates = torch.randn(N_CLASSES, 1, 12, 12, generator=g)
    batches = []
    for _ in range(STEPS):
        y = torch.randint(0, N_CLASSES, (BATCH,), generator=g)
        batches.append((templates[y] + 0.8 * torch.randn(BATCH, 1, 12, 12, generator=g), y))
    return batches


class Trainer:
    def __init__(self, model, callbacks, ols, alpha=0.5):
        self.model, self.callbacks, self.ols, self.alpha = model, callbacks, ols, alpha
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        self.epoch, self.last_loss = 0, 0.0

    def training_step(self, images, labels):
        logits = self.model(images)
        hard = F.cross_entropy(logits, labels)
        loss = self.alpha * hard + (1 - self.alpha) * self.ols.soft_loss(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.last_loss = loss.item()
        return logits

    def fit(self, batches, epochs):
        for self.epoch in range(epochs):
            for cb in self.callbacks:
                cb.on_epoch_start(self)
            for images, labels in batches:
                logits = self.training_step(images, labels)
                for cb in self.callbacks:
                    cb.on_batch_end(self, logits, labels)
            for cb in self.callbacks:
                cb.on_epoch_end(self)


if __name__ == "__main__":
    torch.manual_seed(0)
    ols = OnlineLabelSmoothing(N_CLASSES)
    trainer = Trainer(SmallCNN(), [ols, EpochLogger()], ols)
    trainer.fit(make_batches(seed=3), EPOCHS)
    print("soft label diagonal:", [round(v, 3) for v in ols.soft_labels.diagonal().tolist()])
