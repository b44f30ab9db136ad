"""Train a small environmental-sound tagger (dog, siren, rain, engine, birds)
on synthetic one-second clips, then check it in serving mode."""
import math

import torch
import torch.nn.functional as F

from model import SoundTagger

torch.manual_seed(0)
SAMPLE_RATE = 800
N_CLASSES = 5


def make_clips(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    t = torch.arange(SAMPLE_RATE) / SAMPLE_RATE
    freqs = 40.0 + 60.0 * labels.float()
    clips = torch.sin(2 * math.pi * freqs[:, None] * t[None, :])
    return clips + 0.3 * torch.randn(n, SAMPLE_RATE), labels


model = SoundTagger(n_classes=N_CLASSES)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(2):
    model.train()
    for step in range(5):
        clips, labels = make_clips(16)
        logits = model(clips)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    clips, labels = make_clips(32)
    acc = (model(clips).argmax(1) == labels).float().mean().item()
print(f"serving accuracy {acc:.3f}")
