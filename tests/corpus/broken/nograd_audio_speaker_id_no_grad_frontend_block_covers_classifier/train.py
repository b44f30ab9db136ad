"""Closed-set speaker identification on synthetic voices (each speaker has a pitch and a
formant-like resonance). A fixed filterbank front end (no trainable weights) turns waveforms
into log filterbank energies with per-utterance mean/variance normalisation and SpecAugment-
style time masking; a small TDNN with statistics pooling classifies the speaker."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_speakers: int = 5
    sample_rate: int = 4000
    clip: int = 2000
    n_fft: int = 256
    hop: int = 128
    n_filters: int = 20
    batch: int = 10
    epochs: int = 2
    lr: float = 0.05


class FilterbankFrontend(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        n_bins = cfg.n_fft // 2 + 1
        centers = torch.linspace(0, n_bins - 1, cfg.n_filters + 2)
        bins = torch.arange(n_bins).float()
        width = centers[1] - centers[0]
        fbank = (1 - (bins[None] - centers[1:-1, None]).abs() / width).clamp(min=0)
        self.register_buffer("fbank", fbank)
        self.register_buffer("window", torch.hann_window(cfg.n_fft))

    def forward(self, wave):
        spec = torch.stft(wave, self.cfg.n_fft, self.cfg.hop, window=self.window,
                          return_complex=True).abs() ** 2
        feats = torch.log(self.fbank @ spec + 1e-6)
        return (feats - feats.mean(-1, keepdim=True)) / (feats.std(-1, keepdim=True) + 1e-5)


def time_mask(feats, max_width=3):
    feats = feats.clone()
    for row in feats:
        start = int(torch.randint(0, feats.shape[-1] - max_width, ()))
        row[:, start:start + int(torch.randint(1, max_width + 1, ()))] = 0.0
    return feats


class TDNN(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.frames = nn.Sequential(nn.Conv1d(cfg.n_filters, 32, 3, padding=1), nn.ReLU(),
                                    nn.Conv1d(32, 32, 3, dilation=2, padding=2), nn.ReLU())
        self.classifier = nn.Linear(64, cfg.n_speakers)

    def forward(self, feats):
        h = self.frames(feats)
        return self.classifier(torch.cat([h.mean(-1), h.std(-1)], dim=1))


def voices(cfg, n):
    speakers = torch.randint(0, cfg.n_speakers, (n,))
    t = torch.arange(cfg.clip) / cfg.sample_rate
    pitch = 110.0 + 45.0 * speakers.float()
    formant = 500.0 + 230.0 * speakers.float()
    wave = (torch.sin(2 * math.pi * pitch[:, None] * t) +
            0.6 * torch.sin(2 * math.pi * formant[:, None] * t))
    return wave + 0.4 * torch.randn(n, cfg.clip), speakers


def train(cfg):
    frontend = FilterbankFrontend(cfg)
    model = TDNN(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)
    batches = [voices(cfg, cfg.batch) for _ in range(3)]
    for epoch in range(cfg.epochs):
        model.train()
        for wave, speakers in batches:
            with torch.no_grad():
                feats = time_mask(frontend(wave))
                logits = model(feats)
            loss = F.cross_entropy(logits, speakers)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = (logits.argmax(1) == speakers).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.2f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    trained = train(Config())
    print(f"checksum {sum(p.sum().item() for p in trained.parameters()):.4f}")
