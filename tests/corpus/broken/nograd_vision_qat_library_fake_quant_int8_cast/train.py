"""Quantisation-aware training of a tiny CNN that will ship as an int8 model: classify
8x8 images of horizontal, vertical and diagonal bars."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from qat import ActQuant, QuantConv2d, QuantLinear

N_CLASSES, BATCH = 3, 32


def make_batch(g):
    labels = torch.randint(0, N_CLASSES, (BATCH,), generator=g)
    images = 0.2 * torch.rand(BATCH, 1, 8, 8, generator=g)
    for i, (label, k) in enumerate(zip(labels.tolist(), torch.randint(1, 7, (BATCH,), generator=g).tolist())):
        if label == 0:
            images[i, 0, k, :] += 1.0
        elif label == 1:
            images[i, 0, :, k] += 1.0
        else:
            images[i, 0].diagonal(k - 3).add_(1.0)
    return images, labels


def build_model():
    return nn.Sequential(
        QuantConv2d(1, 8, 3, padding=1), nn.ReLU(), ActQuant(),
        nn.MaxPool2d(2),
        QuantConv2d(8, 16, 3, padding=1), nn.ReLU(), ActQuant(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        QuantLinear(16, N_CLASSES), ActQuant(),  # int8 logits, as on the device
    )


def train(epochs=2, batches_per_epoch=3):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = build_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        for it in range(batches_per_epoch):
            images, labels = make_batch(g)
            logits = model(images)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            acc = (logits.argmax(1) == labels).float().mean().item()
            print(f"epoch {epoch} batch {it}: loss {loss.item():.4f} acc {acc:.2f}")
    return model


if __name__ == "__main__":
    model = train()
    print("observed ranges:", [round(m.running_max.item(), 3) for m in model if isinstance(m, ActQuant)])
