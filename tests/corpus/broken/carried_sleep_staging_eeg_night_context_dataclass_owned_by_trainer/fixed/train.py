"""Sleep staging from single-channel EEG: a small CNN encodes every 30-second epoch and a
GRU reads the sequence of epochs so that each stage decision can use the night's context
(N3 rarely follows wake directly, REM comes in cycles). Nights are long, so the trainer
walks each night in chunks of consecutive epochs and keeps the running context in a
NightContext dataclass."""
from dataclasses import dataclass, field
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STAGES, SAMPLES, CHUNK, N_CHUNKS = 5, 120, 6, 4


@dataclass
class NightContext:
    hidden: Optional[torch.Tensor] = None
    epochs_seen: int = 0
    chunk_losses: List[float] = field(default_factory=list)

    def remember(self, hidden, n_epochs, loss):
        self.hidden = hidden
        self.epochs_seen += n_epochs
        self.chunk_losses.append(loss)


class SleepStager(nn.Module):
    def __init__(self, feat=16, hidden=24):
        super().__init__()
        self.epoch_encoder = nn.Sequential(
            nn.Conv1d(1, 8, 9, stride=3), nn.ReLU(),
            nn.Conv1d(8, feat, 5, stride=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.context = nn.GRU(feat, hidden, batch_first=True)
        self.stage_head = nn.Linear(hidden, N_STAGES)

    def encode(self, eeg):
        batch, n_epochs, samples = eeg.shape
        feats = self.epoch_encoder(eeg.reshape(batch * n_epochs, 1, samples))
        return feats.reshape(batch, n_epochs, -1)


def synthetic_night(gen):
    stages = torch.zeros(1, CHUNK * N_CHUNKS, dtype=torch.long)
    stage = 0
    for t in range(stages.size(1)):
        if torch.rand((), generator=gen) < 0.35:
            stage = int(torch.randint(0, N_STAGES, (), generator=gen))
        stages[0, t] = stage
    t = torch.linspace(0, 1, SAMPLES)
    freq = torch.tensor([10.0, 6.0, 13.0, 2.0, 7.0])[stages]
    eeg = torch.sin(2 * torch.pi * freq[..., None] * t) \
        + 0.4 * torch.randn(*stages.shape, SAMPLES, generator=gen)
    return eeg, stages


class SleepTrainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.ctx = NightContext()

    def training_step(self, eeg, stages):
        feats = self.model.encode(eeg)
        out, hidden = self.model.context(feats, self.ctx.hidden)
        logits = self.model.stage_head(out)
        loss = F.cross_entropy(logits.reshape(-1, N_STAGES), stages.reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.ctx.remember(hidden.detach(), eeg.size(1), loss.item())

    def fit_night(self, eeg, stages):
        self.ctx = NightContext()
        for c in range(N_CHUNKS):
            sl = slice(c * CHUNK, (c + 1) * CHUNK)
            self.training_step(eeg[:, sl], stages[:, sl])
        mean = sum(self.ctx.chunk_losses) / len(self.ctx.chunk_losses)
        print(f"night done: {self.ctx.epochs_seen} epochs, mean loss {mean:.4f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    trainer = SleepTrainer(SleepStager())
    for _ in range(2):
        trainer.fit_night(*synthetic_night(gen))


if __name__ == "__main__":
    main()
