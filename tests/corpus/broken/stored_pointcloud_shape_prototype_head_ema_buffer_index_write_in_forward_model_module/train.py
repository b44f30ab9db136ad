"""Classify tiny synthetic point clouds (sphere, cube surface, cylinder, flat disc) with a
prototype-head PointNet."""
import math

import torch
import torch.nn.functional as F

from model import ShapeClassifier

N_POINTS, N_CLASSES = 48, 4


def sample_shape(kind, gen):
    u = torch.rand(N_POINTS, 3, generator=gen)
    if kind == 0:
        pts = F.normalize(torch.randn(N_POINTS, 3, generator=gen), dim=1)
    elif kind == 1:
        pts = u * 2 - 1
        face = torch.randint(0, 3, (N_POINTS,), generator=gen)
        pts[torch.arange(N_POINTS), face] = torch.sign(pts[torch.arange(N_POINTS), face])
    elif kind == 2:
        theta = 2 * math.pi * u[:, 0]
        pts = torch.stack([theta.cos(), theta.sin(), u[:, 1] * 2 - 1], dim=1)
    else:
        r, theta = u[:, 0].sqrt(), 2 * math.pi * u[:, 1]
        pts = torch.stack([r * theta.cos(), r * theta.sin(), 0.05 * (u[:, 2] - 0.5)], dim=1)
    return pts + 0.02 * torch.randn(N_POINTS, 3, generator=gen)


def make_batches(n_batches, batch, gen):
    batches = []
    for _ in range(n_batches):
        labels = torch.randint(0, N_CLASSES, (batch,), generator=gen)
        clouds = torch.stack([sample_shape(int(k), gen) for k in labels])
        batches.append((clouds, labels))
    return batches


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    batches = make_batches(3, 12, gen)
    model = ShapeClassifier(N_CLASSES)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(2):
        model.train()
        for step, (clouds, labels) in enumerate(batches):
            logits = model(clouds, labels)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            acc = (logits.argmax(dim=1) == labels).float().mean().item()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
