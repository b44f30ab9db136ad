"""Keyword-spotting network: a stem convolution over log-mel frames and 1-D residual blocks."""
import torch.nn as nn
import torch.nn.functional as F


class ResBlock1d(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv1d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm1d(channels)
        self.conv2 = nn.Conv1d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm1d(channels)

    def forward(self, x):
        identity = x
        out = F.relu(self.bn1(self.conv1(x)))
        out = F.relu(self.bn2(self.conv2(out)))
        out += identity
        return out


class KeywordNet(nn.Module):
    def __init__(self, n_mels=20, channels=16, n_keywords=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(n_mels, channels, 3, padding=1), nn.ReLU())
        self.blocks = nn.Sequential(ResBlock1d(channels), ResBlock1d(channels))
        self.head = nn.Linear(channels, n_keywords)

    def forward(self, mel):
        h = self.blocks(self.stem(mel))
        return self.head(h.mean(dim=-1))
