"""Shape classifier (small CNN with BatchNorm) validated with EMA weights. The EMA shadow
is a list of tensors updated under no_grad; ema_weights() copies it into the live
parameters for evaluation and copies the training weights back in a finally block, so
the early return of the sanity check cannot leave the model on EMA weights."""
from contextlib import contextmanager

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE = 16


def shapes_batch(n, gen):
    """Class 0: filled square, 1: ring, 2: cross; random position, noisy."""
    ys, xs = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    labels = torch.randint(0, 3, (n,), generator=gen)
    images = 0.3 * torch.randn(n, 1, SIZE, SIZE, generator=gen)
    for i, y in enumerate(labels.tolist()):
        cy, cx = torch.randint(5, SIZE - 5, (2,), generator=gen).tolist()
        r2 = (ys - cy) ** 2 + (xs - cx) ** 2
        mask = [r2 < 12, (r2 >= 6) & (r2 < 16), ((ys - cy).abs() < 1) | ((xs - cx).abs() < 1)][y]
        images[i, 0][mask & (r2 < 20)] += 1.0
    return images, labels


model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
shadow = [p.detach().clone() for p in model.parameters()]


@torch.no_grad()
def update_shadow(decay=0.8):
    for s, p in zip(shadow, model.parameters()):
        s.lerp_(p, 1 - decay)


@contextmanager
def ema_weights():
    backup = [p.detach().clone() for p in model.parameters()]
    with torch.no_grad():
        for p, s in zip(model.parameters(), shadow):
            p.copy_(s)
    try:
        yield
    finally:
        with torch.no_grad():
            for p, b in zip(model.parameters(), backup):
                p.copy_(b)


def validate(batches, max_batches=None):
    with ema_weights(), torch.no_grad():
        model.eval()
        correct = total = 0
        for i, (images, labels) in enumerate(batches):
            if max_batches is not None and i == max_batches:
                model.train()
                return correct / total
            correct += (model(images).argmax(1) == labels).sum().item()
            total += len(labels)
        model.train()
        return correct / total


gen = torch.Generator().manual_seed(11)
train_batches = [shapes_batch(24, gen) for _ in range(4)]
val_batches = [shapes_batch(24, gen) for _ in range(2)]
print(f"sanity val acc {validate(val_batches, max_batches=1):.3f}")
for epoch in range(2):
    for images, labels in train_batches:
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        update_shadow()
    print(f"epoch {epoch} loss {loss.item():.4f} ema val acc {validate(val_batches):.3f}")
checksum = sum(p.detach().double().sum().item() for p in model.parameters())
print(f"parameter checksum {checksum:.6f}")
