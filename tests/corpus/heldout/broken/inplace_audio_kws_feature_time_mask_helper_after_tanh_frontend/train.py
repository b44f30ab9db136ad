"""Keyword spotting on synthetic 'spectrograms' (12 keywords, 20 mel bins, 32 frames): a
learnable 1x1 frontend squashes the log-mels with tanh, then a small TC-ResNet-style stack
of 1-D convolutions classifies. Masking is applied to the frontend features while training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from augment import time_mask_

torch.manual_seed(0)
N_MELS, N_FRAMES, N_WORDS = 20, 32, 12
TEMPLATES = torch.randn(N_WORDS, N_MELS, N_FRAMES)


class KeywordNet(nn.Module):
    def __init__(self, channels=24):
        super().__init__()
        self.frontend = nn.Conv1d(N_MELS, channels, 1)
        self.convs = nn.Sequential(
            nn.Conv1d(channels, channels, 5, padding=2), nn.BatchNorm1d(channels), nn.ReLU(),
            nn.Conv1d(channels, channels, 5, padding=2, stride=2), nn.BatchNorm1d(channels),
            nn.ReLU(),
        )
        self.classifier = nn.Linear(channels, N_WORDS)

    def forward(self, mels):
        feats = torch.tanh(self.frontend(mels))
        if self.training:
            feats = time_mask_(feats)
        h = self.convs(feats)
        return self.classifier(h.mean(-1))


def batch(n=16):
    words = torch.randint(0, N_WORDS, (n,))
    return TEMPLATES[words] + 0.5 * torch.randn(n, N_MELS, N_FRAMES), words


def main():
    model = KeywordNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(5):
        mels, words = batch()
        loss = F.cross_entropy(model(mels), words, label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
