"""Pneumonia vs. normal on small chest radiographs, starting from a ChestX-ray14 backbone.

The pretrained CNN stays frozen; a new attention-pooling layer and a new 2-class head are
trained on the downstream data.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

import transfer

SIZE = 24


class AttentionPool(nn.Module):
    """Weights every spatial position of the feature map by a learned score."""

    def __init__(self, channels):
        super().__init__()
        self.score = nn.Conv2d(channels, 1, kernel_size=1)

    def forward(self, fmap):
        attn = self.score(fmap).flatten(2).softmax(dim=-1)           # (B, 1, HW)
        return (fmap.flatten(2) * attn).sum(dim=-1)                  # (B, C)


class AveragePool(nn.Module):
    def forward(self, fmap):
        return fmap.mean(dim=(2, 3))


class XrayNet(nn.Module):
    def __init__(self, n_labels, channels=12, attention_pool=True):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(channels, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.pool = AttentionPool(channels) if attention_pool else AveragePool()
        self.classifier = nn.Linear(channels, n_labels)

    def forward(self, x):
        return self.classifier(self.pool(self.backbone(x)))


def radiographs(n, gen):
    """Noisy lung fields; pneumonia adds a bright consolidation patch in a random lobe."""
    labels = torch.randint(0, 2, (n,), generator=gen)
    images = 0.3 + 0.1 * torch.randn(n, 1, SIZE, SIZE, generator=gen)
    images[:, :, 4:20, 3:10] -= 0.2
    images[:, :, 4:20, 14:21] -= 0.2
    for i in torch.nonzero(labels).flatten():
        r = int(torch.randint(5, 15, (1,), generator=gen))
        c = int(torch.randint(4, 16, (1,), generator=gen))
        images[i, :, r:r + 4, c:c + 4] += 0.6
    return images, labels


def main(epochs=3, batch=16, steps=2):
    gen = torch.Generator().manual_seed(0)
    ckpt = transfer.checkpoint_from(XrayNet, n_labels=14, attention_pool=False)
    torch.manual_seed(0)
    model = XrayNet(n_labels=2)
    pretrained = transfer.load_compatible(model, ckpt)
    n_frozen = transfer.freeze(model, pretrained)
    print(f"frozen parameters: {n_frozen}")
    optimizer = torch.optim.Adam([
        {"params": model.pool.parameters(), "lr": 1e-2},
        {"params": model.classifier.parameters(), "lr": 1e-2},
    ])
    for epoch in range(epochs):
        model.train()
        model.backbone.eval()  # keep the pretrained BatchNorm statistics
        for _ in range(steps):
            images, labels = radiographs(batch, gen)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
