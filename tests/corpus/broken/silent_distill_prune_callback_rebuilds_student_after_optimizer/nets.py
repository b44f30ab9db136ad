"""Teacher / student CNNs for the digit-glyph distillation run."""
import torch.nn as nn


def conv_net(width, n_classes=5):
    return nn.Sequential(
        nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
        nn.Conv2d(width, width, 3, padding=1, stride=2), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(width, n_classes),
    )
