"""Four-word keyword spotting on synthetic utterances (tone sweeps with a word-specific start
and end frequency, plus noise) with the learnable-filterbank KeywordSpotter from model.py."""
import math

import torch
import torch.nn.functional as F

from model import KeywordSpotter

torch.manual_seed(0)
SAMPLE_RATE, LENGTH, N_WORDS, BATCH = 4000, 1024, 4, 32
SWEEPS = [(300, 600), (600, 300), (900, 1400), (1400, 900)]


def utterances(n):
    words = torch.randint(0, N_WORDS, (n,))
    t = torch.arange(LENGTH) / SAMPLE_RATE
    start = torch.tensor([SWEEPS[w][0] for w in words], dtype=torch.float32)[:, None]
    end = torch.tensor([SWEEPS[w][1] for w in words], dtype=torch.float32)[:, None]
    freq = start + (end - start) * t / t[-1]
    phase = 2 * math.pi * torch.cumsum(freq, dim=1) / SAMPLE_RATE
    wav = torch.sin(phase) * torch.hann_window(LENGTH) + 0.3 * torch.randn(n, LENGTH)
    return wav, words


model = KeywordSpotter(N_WORDS, learnable_frontend=True)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(8):
    wav, words = utterances(BATCH)
    logits = model(wav)
    loss = F.cross_entropy(logits, words)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(-1) == words).float().mean().item()
    print(f"step {step} loss {loss.item():.4f} acc {acc:.3f}")
print(f"filterbank checksum {model.frontend.bands.abs().sum().item():.4f}")
