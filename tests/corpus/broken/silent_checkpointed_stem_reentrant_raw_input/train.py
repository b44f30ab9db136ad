"""Texture classifier on 32x32 synthetic images. The full-resolution stem holds the largest
activations, so with grad_checkpointing on, the stem is run through torch.utils.checkpoint
(use_reentrant=True, kept from the old default to silence the warning) and recomputed in
backward. Epoch loop over a fixed set of batches."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
SIZE, N_CLASSES, BATCH = 32, 3, 16


def textures(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    ys, xs = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    angle = labels.float()[:, None, None] * math.pi / N_CLASSES
    freq = 0.6 + 0.2 * torch.rand(n, 1, 1)
    wave = torch.sin(freq * (xs * torch.cos(angle) + ys * torch.sin(angle)))
    return (wave + 0.5 * torch.randn(n, SIZE, SIZE)).unsqueeze(1), labels


class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return F.relu(x + self.conv2(F.relu(self.conv1(x))))


class TextureNet(nn.Module):
    def __init__(self, width=16, grad_checkpointing=True):
        super().__init__()
        self.grad_checkpointing = grad_checkpointing
        self.stem = nn.Sequential(nn.Conv2d(1, width, 5, padding=2), nn.ReLU(),
                                  nn.Conv2d(width, width, 3, padding=1), nn.ReLU())
        self.blocks = nn.Sequential(nn.MaxPool2d(2), ResBlock(width), nn.MaxPool2d(2),
                                    ResBlock(width))
        self.head = nn.Linear(width, N_CLASSES)

    def forward(self, x):
        if self.grad_checkpointing and self.training:
            h = checkpoint(self.stem, x, use_reentrant=True)
        else:
            h = self.stem(x)
        h = self.blocks(h)
        return self.head(h.mean(dim=(2, 3)))


batches = [textures(BATCH) for _ in range(3)]
model = TextureNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
model.train()
for epoch in range(3):
    total, correct = 0.0, 0
    for images, labels in batches:
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        correct += (logits.argmax(-1) == labels).sum().item()
    print(f"epoch {epoch} loss {total / len(batches):.4f} acc {correct / (BATCH * len(batches)):.3f}")
