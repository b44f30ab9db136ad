"""Keyword spotting on-device: a small student (frozen pretrained conv front-end, trainable
GRU and classifier) distilled from a larger teacher's temperature-softened predictions."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from kd_utils import apply_max_norm, kd_loss, teacher_soft_targets

torch.manual_seed(0)
N_MELS, FRAMES, N_WORDS = 16, 30, 5


@dataclass
class KDConfig:
    freeze_frontend: bool = True
    temperature: float = 4.0
    alpha: float = 0.7
    lr: float = 4e-3
    epochs: int = 3


class KWSNet(nn.Module):
    def __init__(self, channels, hidden):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(N_MELS, channels, 3, padding=1), nn.ReLU())
        self.gru = nn.GRU(channels, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, N_WORDS)

    def forward(self, mel):
        h, _ = self.gru(self.frontend(mel).transpose(1, 2))
        return self.classifier(h[:, -1])


def keywords(n, gen):
    y = torch.randint(0, N_WORDS, (n,), generator=gen)
    start = torch.tensor([2.0, 5.0, 8.0, 11.0, 14.0])[y]
    slope = torch.tensor([0.2, -0.1, 0.15, -0.2, 0.0])[y]
    t = torch.arange(FRAMES, dtype=torch.float32)
    track = start[:, None] + slope[:, None] * t                       # formant track
    bins = torch.arange(N_MELS, dtype=torch.float32)
    mel = torch.exp(-(bins[None, :, None] - track[:, None, :]) ** 2 / 4)
    return mel + 0.1 * torch.randn(n, N_MELS, FRAMES, generator=gen), y


def fit_teacher(teacher, x, y, steps=4):
    opt = torch.optim.Adam(teacher.parameters(), lr=5e-3)
    for _ in range(steps):
        loss = F.cross_entropy(teacher(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return teacher.eval()


def main(cfg=KDConfig()):
    gen = torch.Generator().manual_seed(0)
    x, y = keywords(96, gen)
    teacher, student = KWSNet(48, 48), KWSNet(12, 16)
    fit_teacher(teacher, x, y)
    if cfg.freeze_frontend:  # pretrained front-end shared with the wake-word model
        student.frontend.requires_grad_(False)
    trainable = [p for p in student.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(trainable, lr=cfg.lr)
    print(f"trainable tensors {len(trainable)} of {len(list(student.parameters()))}")
    for epoch in range(cfg.epochs):
        for i in range(0, len(x), 32):
            mel, target = x[i:i + 32], y[i:i + 32]
            soft = teacher_soft_targets(teacher, mel, cfg.temperature).clone()
            logits = student(mel)
            loss = cfg.alpha * kd_loss(logits, soft, cfg.temperature) + \
                (1 - cfg.alpha) * F.cross_entropy(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            apply_max_norm(student.classifier)
        with torch.no_grad():
            acc = (student(x).argmax(1) == y).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f}")
    checksum = sum(p.detach().abs().sum().item() for p in student.parameters())
    print(f"student checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
