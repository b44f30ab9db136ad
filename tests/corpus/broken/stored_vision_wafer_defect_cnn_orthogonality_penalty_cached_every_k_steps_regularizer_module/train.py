"""Wafer-map defect classifier (center, edge-ring, scratch, none) with soft orthogonal filters."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from regularizers import SoftOrthogonality

CLASSES = ["none", "center", "edge_ring", "scratch"]


def wafer_batch(batch, generator):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")
    r = torch.sqrt(xx ** 2 + yy ** 2)
    labels = torch.randint(0, len(CLASSES), (batch,), generator=generator)
    maps = 0.2 * torch.rand(batch, 16, 16, generator=generator)
    for i, c in enumerate(labels.tolist()):
        if c == 1:
            maps[i] += (r < 0.35).float()
        elif c == 2:
            maps[i] += ((r > 0.75) & (r < 0.95)).float()
        elif c == 3:
            maps[i] += (torch.abs(yy - 0.6 * xx - 0.1) < 0.08).float()
    return (maps * (r <= 1.0).float()).unsqueeze(1), labels


class WaferNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
        )
        self.classifier = nn.Linear(16 * 4, len(CLASSES))

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    model = WaferNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ortho = SoftOrthogonality(model, weight=1e-2, every=3)
    step = 0
    for epoch in range(2):
        for _ in range(3):
            maps, labels = wafer_batch(16, gen)
            logits = model(maps)
            loss = F.cross_entropy(logits, labels) + ortho(step)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            acc = (logits.argmax(1) == labels).float().mean().item()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} acc {acc:.2f}")
            step += 1


if __name__ == "__main__":
    main()
