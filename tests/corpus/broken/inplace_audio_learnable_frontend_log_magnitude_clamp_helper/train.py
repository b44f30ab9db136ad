"""Keyword spotting with a learnable complex filterbank front-end (LEAF-style): two
strided Conv1d layers initialised as Gabor filters give the real and imaginary parts,
their log magnitude feeds a small CNN. Keywords are synthetic tone sweeps in noise."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from features import gabor_init, log_magnitude, per_channel_norm

SR, SAMPLES, N_FILTERS, KEYWORDS = 4000, 2000, 16, 4


class LearnableFrontendKWS(nn.Module):
    def __init__(self, kernel=65, hop=40):
        super().__init__()
        self.real = nn.Conv1d(1, N_FILTERS, kernel, stride=hop, padding=kernel // 2, bias=False)
        self.imag = nn.Conv1d(1, N_FILTERS, kernel, stride=hop, padding=kernel // 2, bias=False)
        re, im = gabor_init(N_FILTERS, kernel, SR)
        with torch.no_grad():
            self.real.weight.copy_(re)
            self.imag.weight.copy_(im)
        self.body = nn.Sequential(
            nn.Conv1d(N_FILTERS, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 32, 5, padding=2, stride=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, KEYWORDS))

    def forward(self, wav):
        feats = log_magnitude(self.real(wav), self.imag(wav))
        return self.body(per_channel_norm(feats))


def synth_keywords(n, gen):
    labels = torch.randint(0, KEYWORDS, (n,), generator=gen)
    t = torch.arange(SAMPLES) / SR
    f_start = 300 + 350 * labels.float()[:, None]
    sweep = (1 + (labels.float()[:, None] % 2) * 2) * 300
    phase = 2 * math.pi * (f_start * t + 0.5 * sweep * t ** 2)
    onset = torch.randint(0, SAMPLES // 4, (n, 1), generator=gen)
    gate = ((torch.arange(SAMPLES) >= onset) & (torch.arange(SAMPLES) < onset + SAMPLES // 2)).float()
    wav = gate * torch.sin(phase) + 0.3 * torch.randn(n, SAMPLES, generator=gen)
    return wav.unsqueeze(1), labels


def train(epochs=3, batches=2, batch_size=16):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    model = LearnableFrontendKWS()
    optimizer = torch.optim.Adam([
        {"params": list(model.real.parameters()) + list(model.imag.parameters()), "lr": 1e-4},
        {"params": model.body.parameters(), "lr": 2e-3},
    ])
    for epoch in range(epochs):
        correct, seen = 0, 0
        for _ in range(batches):
            wav, labels = synth_keywords(batch_size, gen)
            logits = model(wav)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == labels).sum().item()
            seen += len(labels)
        print(f"epoch {epoch} loss {loss.item():.4f} acc {correct / seen:.3f}")


if __name__ == "__main__":
    train()
