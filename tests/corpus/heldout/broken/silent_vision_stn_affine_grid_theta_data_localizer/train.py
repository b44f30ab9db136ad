"""Spatial transformer classifier for shifted and rotated 16x16 digit-like strokes: a small
localisation net predicts an affine warp that re-centres the stroke before classification."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, CLASSES = 16, 3


class STNClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc = nn.Sequential(nn.Conv2d(1, 6, 5, stride=2), nn.ReLU(), nn.Flatten(),
                                 nn.Linear(6 * 6 * 6, 24), nn.ReLU(), nn.Linear(24, 6))
        with torch.no_grad():  # start from the identity transform
            self.loc[-1].weight.mul_(0.1)
            self.loc[-1].bias.copy_(torch.tensor([1.0, 0, 0, 0, 1.0, 0]))
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, CLASSES)

    def warp(self, x):
        theta = self.loc(x).view(-1, 2, 3)
        grid = F.affine_grid(theta.data, list(x.shape), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False)

    def forward(self, x):
        return self.fc(self.features(self.warp(x)))


def strokes(n, generator):
    labels = torch.randint(0, CLASSES, (n,), generator=generator)
    img = torch.zeros(n, 1, SIZE, SIZE)
    img[labels == 0, 0, 4:12, 7:9] = 1.0
    img[labels == 1, 0, 7:9, 4:12] = 1.0
    img[labels == 2, 0, 5:11, 5:11] = 1.0
    img[labels == 2, 0, 7:9, 7:9] = 0.0
    angle = (torch.rand(n, generator=generator) - 0.5) * math.pi / 3
    shift = (torch.rand(n, 2, generator=generator) - 0.5) * 0.6
    theta = torch.stack([torch.stack([angle.cos(), -angle.sin(), shift[:, 0]], -1),
                         torch.stack([angle.sin(), angle.cos(), shift[:, 1]], -1)], 1)
    grid = F.affine_grid(theta, [n, 1, SIZE, SIZE], align_corners=False)
    return F.grid_sample(img, grid, align_corners=False), labels


def train(steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = STNClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(steps):
        images, labels = strokes(32, gen)
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    train()
