"""Show-and-tell style captioner: a small CNN encodes the image into the GRU decoder's
initial state, the decoder is trained with teacher forcing. The CNN is pretrained and, by
default, kept frozen (CaptionConfig.train_encoder=False)."""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class CaptionConfig:
    vocab_size: int
    embed: int = 16
    hidden: int = 32
    train_encoder: bool = False


class ImageEncoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.fc = nn.Linear(64, hidden)

    def forward(self, images):
        return torch.tanh(self.fc(self.conv(images)))


class CaptionDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.embed)
        self.gru = nn.GRU(cfg.embed, cfg.hidden, batch_first=True)
        self.out = nn.Linear(cfg.hidden, cfg.vocab_size)

    def forward(self, feats, tokens):
        h, _ = self.gru(self.embed(tokens), feats.unsqueeze(0))
        return self.out(h)


class Captioner(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = ImageEncoder(cfg.hidden)
        self.decoder = CaptionDecoder(cfg)
        self.encoder.requires_grad_(cfg.train_encoder)

    def forward(self, images, tokens):
        with torch.set_grad_enabled(self.cfg.train_encoder):
            feats = self.encoder(images)
        logits = self.decoder(feats, tokens)
        return logits

    @torch.no_grad()
    def greedy(self, images, bos, steps):
        feats = self.encoder(images).unsqueeze(0)
        token = torch.full((images.size(0), 1), bos, dtype=torch.long)
        words = []
        for _ in range(steps):
            h, feats = self.decoder.gru(self.decoder.embed(token), feats)
            token = self.decoder.out(h).argmax(dim=-1)
            words.append(token)
        return torch.cat(words, dim=1)
