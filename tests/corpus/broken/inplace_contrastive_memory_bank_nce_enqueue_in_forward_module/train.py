"""Self-supervised pre-training of a small 1-D signal encoder (sensor windows) with an
InfoNCE loss that also draws negatives from a memory bank of earlier batches."""
import math

import torch
import torch.nn as nn

from memory import MemoryBankNCE

WINDOW, EMBED, BATCH = 64, 32, 24


def sensor_windows(n, gen):
    t = torch.arange(WINDOW).float()
    freq = 0.05 + 0.25 * torch.rand(n, 1, generator=gen)
    phase = 2 * math.pi * torch.rand(n, 1, generator=gen)
    return torch.sin(freq * t + phase) + 0.1 * torch.randn(n, WINDOW, generator=gen)


def augment(x, gen):
    scale = 0.8 + 0.4 * torch.rand(x.shape[0], 1, generator=gen)
    shift = torch.randint(0, 8, (1,), generator=gen).item()
    return torch.roll(x * scale, shifts=shift, dims=1) + 0.05 * torch.randn(x.shape, generator=gen)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 16, 5, padding=2), nn.BatchNorm1d(16), nn.ReLU(),
            nn.Conv1d(16, 32, 5, padding=2, stride=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten())
        self.proj = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, EMBED))

    def forward(self, x):
        return self.proj(self.conv(x.unsqueeze(1)))


class ContrastiveTrainer:
    def __init__(self, lr=1e-3):
        torch.manual_seed(0)
        self.gen = torch.Generator().manual_seed(3)
        self.encoder = Encoder()
        self.criterion = MemoryBankNCE(EMBED, size=96)
        self.optimizer = torch.optim.Adam(self.encoder.parameters(), lr=lr)
        self.history = []

    def train_step(self):
        x = sensor_windows(BATCH, self.gen)
        q = self.encoder(augment(x, self.gen))
        k = self.encoder(augment(x, self.gen))
        loss = self.criterion(q, k)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
        return loss.item()

    def fit(self, steps=6):
        for step in range(steps):
            loss = self.train_step()
            print(f"step {step} nce {loss:.4f} bank ptr {int(self.criterion.ptr)}")
        return self.history


if __name__ == "__main__":
    ContrastiveTrainer().fit()
