"""Tiny CNN that classifies 8x8 wafer-map patches as clean / scratch / ring defect."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def wafer_patches(n, g):
    labels = torch.randint(0, 3, (n,), generator=g)
    imgs = 0.3 * torch.randn(n, 1, 8, 8, generator=g)
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    ring = (((yy - 3.5) ** 2 + (xx - 3.5) ** 2).sqrt() - 2.5).abs() < 0.8
    scratch = (yy - xx).abs() < 0.6
    imgs[labels == 1, 0] += scratch.float()
    imgs[labels == 2, 0] += ring.float()
    return imgs, labels


def make_loader(n=40, batch=10, seed=2):
    g = torch.Generator().manual_seed(seed)
    imgs, labels = wafer_patches(n, g)
    return [(imgs[i:i + batch], labels[i:i + batch]) for i in range(0, n, batch)]


def build_model():
    return nn.Sequential(
        nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(8, 3),
    )


def train_one_epoch(model, optimizer, loader, epoch):
    stats = {"loss": 0.0, "seen": 0}
    for step, (images, labels) in enumerate(loader):
        logits = model(images)
        stats["loss"] += F.cross_entropy(logits, labels, reduction="sum")
        stats["seen"] += labels.shape[0]
        avg_loss = stats["loss"] / stats["seen"]
        optimizer.zero_grad()
        avg_loss.backward()
        optimizer.step()
        print(f"epoch {epoch} step {step} running loss {float(avg_loss):.4f}")
    return float(stats["loss"]) / stats["seen"]


def main():
    torch.manual_seed(0)
    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loader = make_loader()
    for epoch in range(2):
        mean_loss = train_one_epoch(model, optimizer, loader, epoch)
        print(f"epoch {epoch} mean loss {mean_loss:.4f}")


if __name__ == "__main__":
    main()
