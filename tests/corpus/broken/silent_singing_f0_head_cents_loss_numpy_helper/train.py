"""Frame-level singing-voice analysis: a 1-D conv encoder over log-mel frames with a
voicing head (is the frame sung?) and an f0 head (pitch in Hz). Synthetic data: the
'mel' frames carry a bump at a bin that follows the sung pitch."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import CentsLoss, voicing_loss


@dataclass
class Config:
    n_mels: int = 32
    frames: int = 40
    hidden: int = 32
    lr: float = 3e-3
    cents_weight: float = 1e-3
    steps: int = 6


class SingingFrameNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(cfg.n_mels, cfg.hidden, 5, padding=2), nn.ReLU(),
            nn.Conv1d(cfg.hidden, cfg.hidden, 5, padding=2), nn.ReLU())
        self.voicing_head = nn.Conv1d(cfg.hidden, 1, 1)
        self.f0_head = nn.Sequential(nn.Conv1d(cfg.hidden, 1, 1), nn.Softplus())

    def forward(self, mels):
        h = self.encoder(mels)
        return self.voicing_head(h).squeeze(1), 100.0 + 400.0 * self.f0_head(h).squeeze(1)


def synth_batch(cfg, batch=8):
    f0 = 150.0 + 250.0 * torch.rand(batch, 1) + 20.0 * torch.randn(batch, cfg.frames).cumsum(1) / 10
    f0 = f0.clamp(110.0, 480.0)
    voiced = (torch.rand(batch, cfg.frames) > 0.25).float()
    bins = ((f0 - 100.0) / 400.0 * (cfg.n_mels - 1)).round().long()
    mels = 0.1 * torch.randn(batch, cfg.n_mels, cfg.frames)
    mels.scatter_add_(1, bins.unsqueeze(1), voiced.unsqueeze(1))
    return mels, f0, voiced


def train(cfg):
    torch.manual_seed(0)
    model = SingingFrameNet(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    cents_loss = CentsLoss()
    for step in range(cfg.steps):
        mels, f0, voiced = synth_batch(cfg)
        voicing_logits, f0_pred = model(mels)
        v_loss = voicing_loss(voicing_logits, voiced)
        c_loss = cents_loss(f0_pred, f0, voiced)
        loss = v_loss + cfg.cents_weight * c_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} voicing {v_loss.item():.4f} pitch error {c_loss.item():.1f} cents")
    return model


if __name__ == "__main__":
    train(Config())
