"""Speaker identification with a small TDNN (x-vector style stats pooling) on synthetic
log-mel frames. Mixed precision was added recently through the config flag; on a CPU box
the scaler and autocast are simply disabled."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_mels: int = 20
    frames: int = 40
    n_speakers: int = 5
    batch_size: int = 8
    steps: int = 6
    lr: float = 3e-3
    max_grad_norm: float = 5.0
    use_amp: bool = torch.cuda.is_available()


class TDNN(nn.Module):
    def __init__(self, n_mels, n_speakers, width=32):
        super().__init__()
        self.frame_layers = nn.Sequential(
            nn.Conv1d(n_mels, width, kernel_size=5, padding=2), nn.ReLU(), nn.BatchNorm1d(width),
            nn.Conv1d(width, width, kernel_size=3, dilation=2, padding=2), nn.ReLU(),
        )
        self.segment = nn.Linear(2 * width, width)
        self.classifier = nn.Linear(width, n_speakers)

    def forward(self, feats):
        h = self.frame_layers(feats)
        stats = torch.cat([h.mean(dim=-1), h.std(dim=-1)], dim=1)
        return self.classifier(F.relu(self.segment(stats)))


def synth_batch(cfg, gen):
    speakers = torch.randint(0, cfg.n_speakers, (cfg.batch_size,), generator=gen)
    timbre = torch.linspace(-1.0, 1.0, cfg.n_mels)
    feats = torch.randn(cfg.batch_size, cfg.n_mels, cfg.frames, generator=gen)
    feats = feats + 0.5 * (speakers[:, None].float() * timbre)[..., None]
    return feats, speakers


def train(cfg):
    device = "cuda" if cfg.use_amp else "cpu"
    model = TDNN(cfg.n_mels, cfg.n_speakers).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-4)
    scaler = torch.amp.GradScaler(device, enabled=cfg.use_amp)
    gen = torch.Generator().manual_seed(0)

    for step in range(cfg.steps):
        feats, speakers = synth_batch(cfg, gen)
        feats, speakers = feats.to(device), speakers.to(device)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device, enabled=cfg.use_amp):
            logits = model(feats)
            loss = F.cross_entropy(logits, speakers)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        acc = (logits.argmax(dim=1) == speakers).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.2f} grad_norm {grad_norm:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(Config())
