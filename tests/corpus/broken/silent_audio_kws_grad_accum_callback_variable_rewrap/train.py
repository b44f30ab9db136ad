"""Keyword spotting on synthetic one-second clips: each keyword is a chirp in its own band,
mixed with noise. A log-magnitude STFT front end feeds a small conv net. The KWSTrainer runs
callbacks around each step; the batch that fits on the small GPU is 8 clips, so a
GradAccumulation callback (ported from the team's old 0.3-era trainer) averages the loss over
4 micro-batches before each optimizer step."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

SAMPLE_RATE, CLIP, N_FFT, HOP = 1600, 1600, 128, 64
KEYWORDS = ["yes", "no", "stop", "go"]


def synth_clip(label):
    t = torch.arange(CLIP) / SAMPLE_RATE
    f0 = 120.0 + 150.0 * label
    chirp = torch.sin(2 * math.pi * (f0 + 40.0 * t) * t)
    envelope = torch.exp(-((t - 0.5) ** 2) / 0.05)
    return chirp * envelope + 0.3 * torch.randn(CLIP)


def log_spectrogram(wave):
    window = torch.hann_window(N_FFT)
    spec = torch.stft(wave, N_FFT, HOP, window=window, return_complex=True).abs()
    return torch.log1p(spec)  # (batch, freq, frames)


class KWSNet(nn.Module):
    def __init__(self, n_freq=N_FFT // 2 + 1, n_classes=len(KEYWORDS)):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_freq, 32, 3, padding=1), nn.BatchNorm1d(32),
                                  nn.ReLU(), nn.Conv1d(32, 32, 3, padding=1), nn.ReLU())
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, spec):
        return self.classifier(self.conv(spec).mean(dim=-1))


class GradAccumulation:
    def __init__(self, steps):
        self.steps = steps

    def on_before_backward(self, trainer, loss):
        return Variable(loss.data / self.steps, requires_grad=True)

    def should_step(self, trainer):
        return (trainer.micro_step + 1) % self.steps == 0


class PrintLogger:
    def on_before_backward(self, trainer, loss):
        return loss

    def should_step(self, trainer):
        return True

    def on_optimizer_step(self, trainer, logs):
        print(f"update {trainer.updates} loss {logs['loss']:.4f} acc {logs['acc']:.3f}")


class KWSTrainer:
    def __init__(self, model, callbacks, lr=3e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.micro_step = 0
        self.updates = 0

    def training_step(self, waves, labels):
        logits = self.model(log_spectrogram(waves))
        loss = F.cross_entropy(logits, labels)
        acc = (logits.argmax(1) == labels).float().mean().item()
        for cb in self.callbacks:
            loss = cb.on_before_backward(self, loss)
        loss.backward()
        if all(cb.should_step(self) for cb in self.callbacks):
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.updates += 1
            for cb in self.callbacks:
                if hasattr(cb, "on_optimizer_step"):
                    cb.on_optimizer_step(self, {"loss": loss.item(), "acc": acc})
        self.micro_step += 1

    def fit(self, loader, epochs):
        self.model.train()
        self.optimizer.zero_grad()
        for _ in range(epochs):
            for waves, labels in loader:
                self.training_step(waves, labels)


def main():
    torch.manual_seed(0)
    labels = torch.randint(0, len(KEYWORDS), (32,))
    waves = torch.stack([synth_clip(int(y)) for y in labels])
    loader = list(zip(waves.split(8), labels.split(8)))
    model = KWSNet()
    trainer = KWSTrainer(model, callbacks=[GradAccumulation(steps=4), PrintLogger()])
    trainer.fit(loader, epochs=2)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
