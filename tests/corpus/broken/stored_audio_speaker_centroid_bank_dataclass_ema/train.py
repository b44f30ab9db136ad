"""Speaker embedding training with a centroid bank: every speaker has a running centroid of
its utterance embeddings, and each utterance is classified by scaled cosine similarity
against all centroids (a GE2E-style objective without building centroids per batch)."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, EMB, N_SPEAKERS = 16, 20, 24, 6


@dataclass
class CentroidBank:
    centroids: torch.Tensor
    momentum: float = 0.8
    updates: int = 0
    spread_log: List[float] = field(default_factory=list)

    def update(self, emb, speakers):
        sums = torch.zeros_like(self.centroids).index_add(0, speakers, emb)
        counts = torch.bincount(speakers, minlength=self.centroids.size(0)).clamp(min=1)
        seen = (torch.bincount(speakers, minlength=self.centroids.size(0)) > 0)[:, None]
        means = sums / counts[:, None]
        blended = self.momentum * self.centroids + (1 - self.momentum) * means
        self.centroids = F.normalize(torch.where(seen, blended, self.centroids), dim=1)
        self.updates += 1


class SpeakerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 32, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(32, 32, 3, padding=1), nn.ReLU())
        self.proj = nn.Linear(32, EMB)

    def forward(self, mels):
        h = self.conv(mels.transpose(1, 2)).mean(dim=2)
        return F.normalize(self.proj(h), dim=1)


class CosineScale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(10.0))
        self.b = nn.Parameter(torch.tensor(-5.0))

    def forward(self, emb, centroids):
        return self.w * emb @ centroids.t() + self.b


def utterances(envelopes, speakers, gen):
    tone = envelopes[speakers][:, None, :]
    return tone + 0.3 * torch.randn(len(speakers), FRAMES, N_MELS, generator=gen)


def main(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    envelopes = torch.randn(N_SPEAKERS, N_MELS, generator=gen)
    encoder, scale = SpeakerEncoder(), CosineScale()
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(scale.parameters()), lr=1e-3)
    bank = CentroidBank(centroids=F.normalize(torch.randn(N_SPEAKERS, EMB), dim=1))
    for step in range(steps):
        speakers = torch.randperm(N_SPEAKERS, generator=gen)[:4].repeat_interleave(3)
        emb = encoder(utterances(envelopes, speakers, gen))
        logits = scale(emb, bank.centroids)
        loss = F.cross_entropy(logits, speakers)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        bank.update(emb, speakers)
        acc = (logits.argmax(1) == speakers).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.3f} bank updates {bank.updates}")


if __name__ == "__main__":
    main()
