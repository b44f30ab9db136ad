"""Supervised contrastive learning on synthetic spectra with a per-class memory of recent
embeddings (extra positives and negatives beyond the batch), and snapshots of the batch
embeddings kept for a later projection plot."""
from collections import defaultdict, deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
BINS, EMB, N_CLASSES, BATCH, MEMORY_PER_CLASS, TAU = 40, 16, 4, 24, 32, 0.2


class SpectrumEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
                                 nn.Conv1d(8, 16, 5, padding=2), nn.ReLU(),
                                 nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(16, EMB))

    def forward(self, spectra):
        return F.normalize(self.net(spectra.unsqueeze(1)), dim=1)


def spectra_batch(peaks):
    labels = torch.randint(0, N_CLASSES, (BATCH,))
    grid = torch.arange(BINS).float()
    centre = peaks[labels][:, None] + torch.randn(BATCH, 1)
    return torch.exp(-((grid - centre) ** 2) / 8) + 0.1 * torch.randn(BATCH, BINS), labels


def supcon_with_memory(z, labels, memory):
    bank = [(torch.stack(list(q)), c) for c, q in memory.items() if len(q) > 0]
    if bank:
        keys = torch.cat([z] + [k for k, _ in bank])
        key_labels = torch.cat([labels] + [torch.full((len(k),), c) for k, c in bank])
    else:
        keys, key_labels = z, labels
    sim = z @ keys.t() / TAU
    self_mask = torch.zeros_like(sim, dtype=torch.bool)
    self_mask[:, :len(z)] = torch.eye(len(z), dtype=torch.bool)
    sim = sim.masked_fill(self_mask, -1e9)
    positives = (labels[:, None] == key_labels[None, :]) & ~self_mask
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    return -(log_prob * positives).sum(1).div(positives.sum(1).clamp(min=1)).mean()


encoder = SpectrumEncoder()
optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)
memory = defaultdict(lambda: deque(maxlen=MEMORY_PER_CLASS))
snapshots = []
peaks = torch.tensor([6.0, 15.0, 24.0, 33.0])

for step in range(8):
    spectra, labels = spectra_batch(peaks)
    z = encoder(spectra)
    loss = supcon_with_memory(z, labels, memory)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    for emb, label in zip(z.detach(), labels.tolist()):
        memory[label].append(emb)
    snapshots.append((step, z.detach().clone(), labels.clone()))
    sizes = [len(memory[c]) for c in range(N_CLASSES)]
    print(f"step {step}  loss {loss.item():.4f}  memory sizes {sizes}")

_, last_z, last_labels = snapshots[-1]
centroids = torch.stack([last_z[last_labels == c].mean(0) for c in range(N_CLASSES)
                         if (last_labels == c).any()])
print(f"mean centroid cosine {(centroids @ centroids.t()).mean().item():.4f}")
print(f"parameter checksum {sum(p.sum().item() for p in encoder.parameters()):.6f}")
