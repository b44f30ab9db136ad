"""Small residual CNN in the torchvision ResNet layout (stem, stages, pooled fc head)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(out)))


class TinyResNet(nn.Module):
    def __init__(self, num_classes=10, width=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(width), nn.ReLU())
        self.layer1 = BasicBlock(width)
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x):
        x = self.layer1(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def pretrained_state():
    """Stand-in for an ImageNet-style checkpoint with a 10-way head."""
    torch.manual_seed(123)
    return TinyResNet(num_classes=10).state_dict()
