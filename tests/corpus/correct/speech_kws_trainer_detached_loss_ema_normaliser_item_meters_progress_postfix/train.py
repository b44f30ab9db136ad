"""Keyword spotting on synthetic log-mel patches: a small CNN classifies keywords and a
second head regresses the keyword's onset frame. The two losses are put on a common scale
by dividing each by a moving average of its own value, the trainer shows a tqdm-like
progress line, and per-epoch meters are reported at the end of each epoch."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, N_KEYWORDS, BATCH = 16, 24, 4, 16


class KWSNet(nn.Module):
    def __init__(self, channels=12):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, channels, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
        )
        self.pool = nn.AdaptiveAvgPool2d((1, 4))
        self.keyword = nn.Linear(channels * 4, N_KEYWORDS)
        self.onset = nn.Linear(channels * 4, 1)

    def forward(self, mel):
        h = self.pool(self.conv(mel.unsqueeze(1))).flatten(1)
        return self.keyword(h), self.onset(h).squeeze(1)


def synth_batch(templates, gen):
    labels = torch.randint(0, N_KEYWORDS, (BATCH,), generator=gen)
    onset = torch.randint(0, FRAMES - 8, (BATCH,), generator=gen)
    mel = 0.3 * torch.randn(BATCH, N_MELS, FRAMES, generator=gen)
    for b in range(BATCH):
        mel[b, :, onset[b]:onset[b] + 8] += templates[labels[b]]
    return mel, labels, onset.float() / FRAMES


class ProgressLine:
    def __init__(self, desc):
        self.desc, self.n, self.postfix = desc, 0, {}

    def set_postfix(self, **values):
        self.postfix = values

    def update(self):
        self.n += 1
        print(f"{self.desc} {self.n} " + " ".join(f"{k}={float(v):.4f}"
                                                  for k, v in self.postfix.items()))


class Trainer:
    def __init__(self, model, optimizer, momentum=0.8):
        self.model = model
        self.optimizer = optimizer
        self.momentum = momentum
        self.loss_ema = {}

    def normalised(self, losses):
        total = 0.0
        for name, value in losses.items():
            previous = self.loss_ema.get(name, value.detach())
            self.loss_ema[name] = self.momentum * previous + (1 - self.momentum) * value.detach()
            total = total + value / self.loss_ema[name]
        return total

    def train_epoch(self, epoch, templates, gen, steps):
        meters = defaultdict(float)
        bar = ProgressLine(f"epoch {epoch}")
        for _ in range(steps):
            mel, labels, onset = synth_batch(templates, gen)
            logits, onset_pred = self.model(mel)
            losses = {"ce": F.cross_entropy(logits, labels),
                      "onset": F.smooth_l1_loss(onset_pred, onset)}
            loss = self.normalised(losses)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for name, value in losses.items():
                meters[name] += value.item() * BATCH
            meters["acc"] += (logits.argmax(1) == labels).sum().item()
            bar.set_postfix(ce=losses["ce"].detach(), ce_ema=self.loss_ema["ce"],
                            onset_ema=self.loss_ema["onset"])
            bar.update()
        n = steps * BATCH
        return {name: total / n for name, total in meters.items()}


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    templates = 1.5 * torch.randn(N_KEYWORDS, N_MELS, 8, generator=gen)
    model = KWSNet()
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=3e-3))
    for epoch in range(2):
        stats = trainer.train_epoch(epoch, templates, gen, steps=4)
        print(f"epoch {epoch} ce {stats['ce']:.4f} onset {stats['onset']:.4f} "
              f"acc {stats['acc']:.3f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
