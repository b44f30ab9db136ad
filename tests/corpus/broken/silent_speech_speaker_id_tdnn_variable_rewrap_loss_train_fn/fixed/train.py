"""Speaker identification with a small x-vector style TDNN: frame-level dilated 1-D
convolutions over MFCC-like features, statistics pooling (mean and standard deviation over
time), a segment-level embedding layer and a speaker classifier."""
import torch
import torch.nn as nn

N_SPEAKERS, N_MFCC, FRAMES, BATCH = 6, 13, 40, 12


class TDNN(nn.Module):
    def __init__(self, channels=24, emb=16):
        super().__init__()
        self.frames = nn.Sequential(
            nn.Conv1d(N_MFCC, channels, 5, dilation=1), nn.ReLU(), nn.BatchNorm1d(channels),
            nn.Conv1d(channels, channels, 3, dilation=2), nn.ReLU(), nn.BatchNorm1d(channels),
            nn.Conv1d(channels, channels, 3, dilation=3), nn.ReLU(), nn.BatchNorm1d(channels),
        )
        self.embedding = nn.Linear(2 * channels, emb)
        self.classifier = nn.Linear(emb, N_SPEAKERS)

    def forward(self, feats):
        h = self.frames(feats)
        stats = torch.cat([h.mean(dim=2), h.std(dim=2)], dim=1)
        return self.classifier(torch.relu(self.embedding(stats)))


def synth_utterances(n, voices, gen):
    """MFCC-like frames: a speaker-specific spectral envelope plus per-frame jitter."""
    speakers = torch.randint(0, N_SPEAKERS, (n,), generator=gen)
    feats = voices[speakers][:, :, None] + 0.8 * torch.randn(n, N_MFCC, FRAMES, generator=gen)
    return feats, speakers


def train(model, optimizer, data, epochs):
    criterion = nn.CrossEntropyLoss()
    feats, speakers = data
    for epoch in range(epochs):
        model.train()
        total, correct = 0.0, 0
        for start in range(0, len(speakers), BATCH):
            x, y = feats[start:start + BATCH], speakers[start:start + BATCH]
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(y)
            correct += (logits.argmax(1) == y).sum().item()
        print(f"epoch {epoch} loss {total / len(speakers):.4f} acc {correct / len(speakers):.3f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    voices = 1.5 * torch.randn(N_SPEAKERS, N_MFCC, generator=gen)
    data = synth_utterances(48, voices, gen)
    model = TDNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    train(model, optimizer, data, epochs=2)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
