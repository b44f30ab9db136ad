"""Adversarial data augmentation for wearable activity recognition (IMU windows).

A small augmenter network distorts each accelerometer window within a bound; the
classifier learns from clean and augmented windows, while the augmenter is trained
to make its windows as hard as possible for the classifier (a min-max game).
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)


@dataclass
class Config:
    channels: int = 3
    length: int = 32
    classes: int = 4
    windows: int = 64
    batch: int = 16
    epochs: int = 2
    eps: float = 0.3
    lr_clf: float = 3e-3
    lr_aug: float = 1e-3


class Augmenter(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.eps = cfg.eps
        self.net = nn.Sequential(nn.Conv1d(cfg.channels, 8, 5, padding=2), nn.Tanh(),
                                 nn.Conv1d(8, cfg.channels, 5, padding=2))

    def forward(self, x):
        return x + self.eps * torch.tanh(self.net(x))


class ActivityNet(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.conv = nn.Conv1d(cfg.channels, 16, 5, padding=2)
        self.fc = nn.Linear(16, cfg.classes)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean(dim=-1))


def make_windows(cfg: Config):
    labels = torch.randint(0, cfg.classes, (cfg.windows,))
    t = torch.linspace(0, 6.28, cfg.length)
    freq = 1.0 + labels.float()[:, None, None]
    x = torch.sin(freq * t) * torch.ones(1, cfg.channels, 1)
    return x + 0.2 * torch.randn(cfg.windows, cfg.channels, cfg.length), labels


def train_step(x, y, augmenter, clf, opt_clf, opt_aug):
    x_aug = augmenter(x)
    logits = clf(torch.cat([x, x_aug]))
    clf_loss = F.cross_entropy(logits, torch.cat([y, y]))
    opt_clf.zero_grad()
    clf_loss.backward(retain_graph=True)
    opt_clf.step()

    # the augmenter is the adversary: it wants its half of the batch misclassified;
    # score it with the classifier as it is after its step (the old logits are stale)
    adv_loss = -F.cross_entropy(clf(x_aug), y)
    opt_aug.zero_grad()
    adv_loss.backward()
    opt_aug.step()
    return clf_loss.item(), adv_loss.item()


def main(cfg=Config()):
    augmenter, clf = Augmenter(cfg), ActivityNet(cfg)
    opt_clf = torch.optim.Adam(clf.parameters(), lr=cfg.lr_clf)
    opt_aug = torch.optim.Adam(augmenter.parameters(), lr=cfg.lr_aug)
    x, y = make_windows(cfg)
    for epoch in range(cfg.epochs):
        for s in range(0, cfg.windows, cfg.batch):
            c, a = train_step(x[s:s + cfg.batch], y[s:s + cfg.batch], augmenter, clf, opt_clf, opt_aug)
        print(f"epoch {epoch} clf {c:.4f} adv {a:.4f}")
    params = list(augmenter.parameters()) + list(clf.parameters())
    print("checksum", sum(p.sum().item() for p in params))


if __name__ == "__main__":
    main()
