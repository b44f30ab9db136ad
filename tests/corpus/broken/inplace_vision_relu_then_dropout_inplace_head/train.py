"""Small CNN that tells horizontal, vertical and diagonal bar images apart. The fully
connected part follows the bottom-up-attention VQA classifier: weight-normalised Linear
layers, a ReLU, and an in-place Dropout to save activation memory."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm

SIZE, N_CLASSES = 12, 3


def make_bars(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    images = 0.3 * torch.randn(n, 1, SIZE, SIZE)
    idx = torch.arange(SIZE)
    for i, label in enumerate(labels.tolist()):
        k = torch.randint(2, SIZE - 2, (1,)).item()
        if label == 0:
            images[i, 0, k, :] += 1.0
        elif label == 1:
            images[i, 0, :, k] += 1.0
        else:
            images[i, 0, idx, idx] += 1.0
    return images, labels


class BarClassifier(nn.Module):
    def __init__(self, hidden=64, dropout=0.3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten(),
        )
        self.fc = nn.Sequential(weight_norm(nn.Linear(64, hidden), dim=None), nn.ReLU())
        self.classifier = nn.Sequential(
            nn.Dropout(dropout, inplace=True),
            weight_norm(nn.Linear(hidden, N_CLASSES), dim=None),
        )

    def forward(self, images):
        hidden = self.fc(self.features(images))
        return self.classifier(hidden)


def train_one_epoch(model, optimizer, batches):
    model.train()
    total = 0.0
    for images, labels in batches:
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(batches)


torch.manual_seed(0)
model = BarClassifier()
optimizer = torch.optim.Adamax(model.parameters(), lr=2e-3)
batches = [make_bars(32) for _ in range(3)]
for epoch in range(2):
    print(f"epoch {epoch} loss {train_one_epoch(model, optimizer, batches):.4f}")
