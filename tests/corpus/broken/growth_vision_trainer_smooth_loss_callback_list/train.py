"""Tiny CNN that tells which quadrant of a noisy 12x12 image holds a bright blob, trained
by a minimal Trainer that runs a list of callbacks (callbacks.py) after every batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import ProgressPrinter, SmoothedLoss

torch.manual_seed(0)
SIZE, BATCH = 12, 24


def blob_batch(n):
    quadrant = torch.randint(0, 4, (n,))
    images = 0.3 * torch.randn(n, 1, SIZE, SIZE)
    half = SIZE // 2
    for k in range(n):
        r, c = divmod(int(quadrant[k]), 2)
        images[k, 0, r * half + 1:r * half + 5, c * half + 1:c * half + 5] += 1.5
    return images, quadrant


class QuadrantNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.classifier = nn.Linear(16 * 4, 4)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


class Trainer:
    def __init__(self, model, callbacks, lr=3e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.state = {"step": 0}

    def _emit(self, event, *args):
        for cb in self.callbacks:
            getattr(cb, event)(self, *args)

    def fit(self, epochs, batches_per_epoch):
        self._emit("on_train_begin")
        for epoch in range(epochs):
            for _ in range(batches_per_epoch):
                images, labels = blob_batch(BATCH)
                loss = F.cross_entropy(self.model(images), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self._emit("on_batch_end", loss)
                self.state["step"] += 1
            self._emit("on_epoch_end", epoch)


trainer = Trainer(QuadrantNet(), callbacks=[SmoothedLoss(beta=0.9), ProgressPrinter(every=3)])
trainer.fit(epochs=2, batches_per_epoch=5)
