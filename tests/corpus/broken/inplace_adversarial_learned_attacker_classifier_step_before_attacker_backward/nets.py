"""Networks for min-max adversarial training with a learned attacker."""
import torch
import torch.nn as nn


class BarClassifier(nn.Module):
    """Tells horizontal-bar 8x8 images from vertical-bar ones."""

    def __init__(self, n_classes=2):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten(),
        )
        self.head = nn.Linear(16 * 4, n_classes)

    def forward(self, x):
        return self.head(self.features(x))


class Attacker(nn.Module):
    """Image-conditioned perturbation network, bounded to an L-inf ball of radius eps."""

    def __init__(self, eps):
        super().__init__()
        self.eps = eps
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        return self.eps * torch.tanh(self.net(x))
