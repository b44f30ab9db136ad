"""Arrhythmia beat classification (5 classes, 64-sample beats): a wide 1-D CNN teacher is fit
first, then a 4x smaller student for the wearable is distilled from its logits and features."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from distill import Distiller

torch.manual_seed(0)
N_CLASSES, BEAT = 5, 64


class BeatCNN(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(1, width, 7, padding=3), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten())
        self.head = nn.Linear(width, N_CLASSES)
        self.width = width

    def forward(self, x, return_features=False):
        feats = self.body(x)
        logits = self.head(feats)
        return (logits, feats) if return_features else logits


def beats(n, gen):
    y = torch.randint(0, N_CLASSES, (n,), generator=gen)
    t = torch.linspace(-1, 1, BEAT)
    width = torch.tensor([0.05, 0.12, 0.05, 0.08, 0.2])[y][:, None]
    shift = torch.tensor([0.0, 0.0, -0.3, 0.25, 0.1])[y][:, None]
    qrs = torch.exp(-((t - shift) ** 2) / (2 * width ** 2))
    p_wave = 0.2 * torch.exp(-((t + 0.5) ** 2) / 0.01) * (y != 2).float()[:, None]
    x = qrs + p_wave + 0.05 * torch.randn(n, BEAT, generator=gen)
    return x[:, None], y


def fit_teacher(teacher, x, y, steps=4):
    opt = torch.optim.Adam(teacher.parameters(), lr=3e-3)
    for _ in range(steps):
        loss = F.cross_entropy(teacher(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main():
    gen = torch.Generator().manual_seed(0)
    x, y = beats(128, gen)
    teacher, student = BeatCNN(width=32), BeatCNN(width=8)
    print(f"teacher ce {fit_teacher(teacher, x, y):.4f}")
    distiller = Distiller(teacher, student, t_dim=teacher.width, s_dim=student.width)
    optimizer = torch.optim.Adam(distiller.trainable_parameters(), lr=3e-3)
    for epoch in range(2):
        for i in range(0, len(x), 64):
            loss, ce = distiller.loss(x[i:i + 64], y[i:i + 64])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            acc = (student(x).argmax(1) == y).float().mean().item()
        print(f"epoch {epoch} distill loss {loss.item():.4f} student ce {ce.item():.4f} acc {acc:.3f}")
    print(f"connector weight norm {distiller.connector.weight.norm().item():.4f}")


if __name__ == "__main__":
    main()
