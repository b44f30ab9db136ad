"""Small CNN classifying synthetic bar/cross/diagonal glyphs, trained with a gradient-spike
guard from the shared stability helpers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from stability import GradSpikeGuard

SIZE, CLASSES = 12, 3


def glyphs(n, gen):
    labels = torch.randint(0, CLASSES, (n,), generator=gen)
    imgs = 0.2 * torch.randn(n, 1, SIZE, SIZE, generator=gen)
    idx = torch.arange(SIZE)
    for i, c in enumerate(labels.tolist()):
        k = int(torch.randint(2, SIZE - 2, (1,), generator=gen))
        if c == 0:
            imgs[i, 0, k, :] += 1.0
        elif c == 1:
            imgs[i, 0, :, k] += 1.0
        else:
            imgs[i, 0, idx, idx] += 1.0
    return imgs, labels


class GlyphNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2),
        )
        self.classifier = nn.Linear(16 * 4, CLASSES)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def main(epochs=2, batches_per_epoch=3):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    model = GlyphNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    guard = GradSpikeGuard(model.parameters(), max_norm=1.0)
    for epoch in range(epochs):
        model.train()
        for b in range(batches_per_epoch):
            images, labels = glyphs(32, gen)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(images), labels, label_smoothing=0.05)
            norm = guard.backward(loss)
            optimizer.step()
            print(f"epoch {epoch} batch {b} loss {loss.item():.4f} grad norm {norm:.3f} "
                  f"spikes {guard.spikes}")
    return model


if __name__ == "__main__":
    main()
