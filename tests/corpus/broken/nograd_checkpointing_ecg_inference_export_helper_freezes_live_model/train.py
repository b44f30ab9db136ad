"""Heartbeat classification from single-lead ECG windows (normal / PVC / APC) with a small
1-D CNN. After every epoch the script writes a training checkpoint and a slim inference
checkpoint (kept in memory here instead of on disk)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from ckpt_utils import save_inference_checkpoint, save_training_checkpoint

torch.manual_seed(8)
CLASSES = ["normal", "pvc", "apc"]
WINDOW = 64


class BeatNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 8, 7, padding=3), nn.BatchNorm1d(8), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(8, 16, 5, padding=2), nn.BatchNorm1d(16), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1))
        self.classifier = nn.Linear(16, len(CLASSES))

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def synthetic_beats(n):
    labels = torch.randint(0, len(CLASSES), (n,))
    t = torch.linspace(0, 1, WINDOW)
    width = torch.tensor([0.03, 0.08, 0.03])[labels].unsqueeze(1)
    centre = torch.tensor([0.5, 0.5, 0.35])[labels].unsqueeze(1)
    beats = torch.exp(-((t - centre) ** 2) / (2 * width ** 2)) + 0.05 * torch.randn(n, WINDOW)
    return beats.unsqueeze(1), labels


def main(epochs=3):
    model = BeatNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = synthetic_beats(96)
    store = {}
    for epoch in range(epochs):
        running = 0.0
        for i in range(0, len(x), 48):
            logits = model(x[i:i + 48])
            loss = F.cross_entropy(logits, y[i:i + 48])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        save_training_checkpoint(store, epoch, model, optimizer)
        size = save_inference_checkpoint(store, epoch, model, CLASSES)
        print(f"epoch {epoch} loss {running / 2:.4f} inference ckpt {math.ceil(size / 1024)} KiB")
    return model


if __name__ == "__main__":
    trained = main()
    print(f"checksum {sum(p.sum().item() for p in trained.parameters()):.4f}")
