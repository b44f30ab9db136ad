"""Keyword spotting on synthetic log-mel clips with SpecAugment-style masking done in
place on the features, and a loss meter that keeps tensors (sum, EMA, per-step history)
for the epoch summary."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, KEYWORDS = 24, 40, 5


@dataclass
class LossMeter:
    total: torch.Tensor = field(default_factory=lambda: torch.zeros(()))
    ema: torch.Tensor = field(default_factory=lambda: torch.zeros(()))
    history: list = field(default_factory=list)
    count: int = 0

    def update(self, loss):
        value = loss.detach()
        self.total += value
        self.ema.mul_(0.8).add_(0.2 * value)
        self.history.append(value)
        self.count += 1

    def summary(self):
        hist = torch.stack(self.history)
        return (self.total / self.count).item(), self.ema.item(), hist.std().item()


def synth_logmel(n, gen):
    labels = torch.randint(0, KEYWORDS, (n,), generator=gen)
    mel = torch.arange(N_MELS).float()[None, :, None]
    t = torch.arange(FRAMES).float()[None, None, :]
    centre = 4 + 3 * labels.float()[:, None, None] + 0.1 * t
    clips = torch.exp(-0.5 * (mel - centre) ** 2 / 2.0)
    return torch.log(clips + 0.05 * torch.rand(n, N_MELS, FRAMES, generator=gen) + 1e-3), labels


@torch.no_grad()
def spec_augment_(feats, gen, max_f=4, max_t=8):
    """Zero one band of mel channels and one span of frames per clip, in place."""
    for clip in feats:
        f0 = int(torch.randint(0, N_MELS - max_f, (1,), generator=gen))
        t0 = int(torch.randint(0, FRAMES - max_t, (1,), generator=gen))
        clip[f0:f0 + max_f, :] = 0.0
        clip[:, t0:t0 + max_t] = 0.0
    return feats


def build_model():
    return nn.Sequential(
        nn.Conv1d(N_MELS, 32, 3, padding=1), nn.BatchNorm1d(32), nn.ReLU(inplace=True),
        nn.Conv1d(32, 32, 3, padding=1), nn.BatchNorm1d(32), nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, KEYWORDS))


def train(epochs=2, batches=3, batch_size=16):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(8)
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        meter = LossMeter()
        for _ in range(batches):
            feats, labels = synth_logmel(batch_size, gen)
            feats.sub_(feats.mean(dim=(1, 2), keepdim=True))  # per-utterance mean norm
            spec_augment_(feats, gen)
            loss = F.cross_entropy(model(feats), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            meter.update(loss)
        mean, ema, spread = meter.summary()
        print(f"epoch {epoch} mean loss {mean:.5f} ema {ema:.5f} std {spread:.5f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
