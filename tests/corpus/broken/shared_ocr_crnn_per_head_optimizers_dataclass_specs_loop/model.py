"""Tiny CRNN for text-line images: conv encoder, CTC character head and a script-ID head."""
import torch
import torch.nn as nn


class LineEncoder(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 2)),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((4, 1)))
        self.rnn = nn.GRU(16, dim // 2, batch_first=True, bidirectional=True)

    def forward(self, images):
        f = self.conv(images)                      # (B, 16, 1, W/2)
        seq = f.squeeze(2).transpose(1, 2)         # (B, T, 16)
        out, _ = self.rnn(seq)
        return out                                 # (B, T, dim)


class CTCHead(nn.Module):
    def __init__(self, dim, n_chars):
        super().__init__()
        self.proj = nn.Linear(dim, n_chars + 1)   # index 0 is the blank

    def forward(self, feats):
        return self.proj(feats).log_softmax(-1)


class ScriptHead(nn.Module):
    def __init__(self, dim, n_scripts):
        super().__init__()
        self.proj = nn.Linear(dim, n_scripts)

    def forward(self, feats):
        return self.proj(feats.mean(dim=1))
