"""Multi-label audio tagging on synthetic log-mel clips. Each tag has a fixed attribute
vector (from the ontology); a learnable label encoder maps it into the clip embedding
space and clips are scored against every tag embedding."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_mels: int = 16
    frames: int = 24
    n_tags: int = 6
    attr_dim: int = 10
    emb_dim: int = 12
    epochs: int = 2
    batches_per_epoch: int = 3
    batch_size: int = 8
    temperature: float = 0.2


class ClipEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(cfg.n_mels, 24, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(24, 24, 3, padding=1), nn.ReLU())
        self.proj = nn.Linear(24, cfg.emb_dim)

    def forward(self, mel):
        h = self.conv(mel).mean(-1)  # average over time
        return F.normalize(self.proj(h), dim=-1)


class LabelEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(cfg.attr_dim, 16), nn.ReLU(), nn.Linear(16, cfg.emb_dim))

    def forward(self, attributes):
        return F.normalize(self.net(attributes), dim=-1)


def synthetic_clips(cfg, tag_patterns):
    tags = (torch.rand(cfg.batch_size, cfg.n_tags) < 0.35).float()
    mel = torch.einsum("bt,tm->bm", tags, tag_patterns).unsqueeze(-1).expand(-1, -1, cfg.frames)
    return mel + 0.5 * torch.randn(cfg.batch_size, cfg.n_mels, cfg.frames), tags


def train(cfg):
    torch.manual_seed(8)
    tag_attributes = torch.randn(cfg.n_tags, cfg.attr_dim)
    tag_patterns = torch.rand(cfg.n_tags, cfg.n_mels)
    clip_encoder, label_encoder = ClipEncoder(cfg), LabelEncoder(cfg)
    optimizer = torch.optim.AdamW([*clip_encoder.parameters(), *label_encoder.parameters()],
                                  lr=3e-3, weight_decay=1e-4)

    tag_emb = label_encoder(tag_attributes)
    for epoch in range(cfg.epochs):
        for b in range(cfg.batches_per_epoch):
            mel, tags = synthetic_clips(cfg, tag_patterns)
            clip_emb = clip_encoder(mel)
            logits = clip_emb @ tag_emb.t() / cfg.temperature
            loss = F.binary_cross_entropy_with_logits(logits, tags)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {b} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(Config())
