"""Digit-like glyph classifier trained with a callback-based Trainer: supervised
cross-entropy in the training step, a consistency regulariser plugged in as a callback."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import ConsistencyRegularizer, ConsoleLogger

N_CLASSES, BATCH, STEPS = 6, 16, 5


class GlyphNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(),
        )
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.head(self.features(x))


class Trainer:
    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
        self.global_step = 0

    def fit_batch(self, images, labels):
        logits = self.model(images)
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)  # callbacks may still need the graph
        self.optimizer.step()
        outputs = {"images": images, "logits": logits, "loss": loss}
        for cb in self.callbacks:
            cb.on_train_batch_end(self, outputs)
        self.global_step += 1


def glyphs(gen):
    protos = (torch.rand(N_CLASSES, 1, 8, 8, generator=gen) > 0.5).float()
    while True:
        y = torch.randint(0, N_CLASSES, (BATCH,), generator=gen)
        yield protos[y] + 0.3 * torch.randn(BATCH, 1, 8, 8, generator=gen), y


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(GlyphNet(), [ConsistencyRegularizer(), ConsoleLogger()])
    data = glyphs(torch.Generator().manual_seed(7))
    for _ in range(STEPS):
        trainer.fit_batch(*next(data))
    checksum = sum(p.sum().item() for p in trainer.model.parameters())
    print(f"parameter checksum {checksum:.4f}")
