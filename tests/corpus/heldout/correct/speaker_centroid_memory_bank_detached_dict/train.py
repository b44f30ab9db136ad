"""Speaker-embedding training with a memory bank of speaker centroids. Utterances are
synthetic log-mel sequences; a small CNN encoder maps each to an embedding, and the loss is
a cosine softmax against the centroid of every speaker seen so far. Centroids live in a
dict keyed by speaker id and are updated from detached embeddings under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
N_SPEAKERS, N_MELS, FRAMES, EMB, SCALE, MOMENTUM = 6, 16, 20, 24, 10.0, 0.8


class SpeakerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 32, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(32, 32, 3, padding=1), nn.ReLU())
        self.proj = nn.Linear(32, EMB)

    def forward(self, mels):
        return F.normalize(self.proj(self.conv(mels).mean(dim=2)), dim=1)


voices = torch.randn(N_SPEAKERS, N_MELS, 1)


def utterances(speakers):
    return voices[speakers] + 0.7 * torch.randn(len(speakers), N_MELS, FRAMES)


encoder = SpeakerEncoder()
optimizer = torch.optim.Adam(encoder.parameters(), lr=3e-3)
centroids = {}

for step in range(6):
    speakers = torch.randint(0, N_SPEAKERS, (12,))
    emb = encoder(utterances(speakers))
    with torch.no_grad():
        for spk in speakers.unique().tolist():
            mean = emb[speakers == spk].mean(0)
            old = centroids.get(spk, mean)
            centroids[spk] = F.normalize(MOMENTUM * old + (1 - MOMENTUM) * mean, dim=0)
    ids = sorted(centroids)
    bank = torch.stack([centroids[i] for i in ids])
    targets = torch.tensor([ids.index(s) for s in speakers.tolist()])
    loss = F.cross_entropy(SCALE * emb @ bank.T, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5f} speakers in bank {len(ids)}")

print(f"encoder checksum {sum(p.double().sum().item() for p in encoder.parameters()):.6f}")
