"""Small CNN for the texture classifier: a conv backbone and a linear head."""
import torch.nn as nn


class TextureNet(nn.Module):
    def __init__(self, n_classes=4, width=12):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, padding=1, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten(),
        )
        self.head = nn.Linear(8 * width, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))
