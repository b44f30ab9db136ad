"""Speech emotion recognition on top of a 'pretrained' speaker encoder: the encoder is
frozen (requires_grad_(False), eval mode) and only a new emotion head is trained."""
import torch
import torch.nn as nn
import torch.nn.functional as F

MELS, FRAMES, EMOTIONS = 20, 24, 4


class SpeakerEncoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(MELS, dim, 5, padding=2), nn.BatchNorm1d(dim),
                                  nn.ReLU(), nn.Conv1d(dim, dim, 3, padding=1), nn.ReLU())
        self.proj = nn.Linear(2 * dim, dim)

    def forward(self, mel):
        h = self.conv(mel)
        stats = torch.cat([h.mean(-1), h.std(-1)], dim=-1)  # statistics pooling
        return F.normalize(self.proj(stats), dim=-1)


def utterances(n, generator):
    labels = torch.randint(0, EMOTIONS, (n,), generator=generator)
    energy = (labels.float() + 1).view(-1, 1, 1) / EMOTIONS
    mel = energy * torch.rand(n, MELS, FRAMES, generator=generator) + 0.1 * torch.randn(
        n, MELS, FRAMES, generator=generator)
    return mel, labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    encoder = SpeakerEncoder()
    encoder.requires_grad_(False)
    encoder.eval()
    head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, EMOTIONS))
    optimizer = torch.optim.Adam(head.parameters(), lr=5e-3)
    frozen_sum = sum(p.sum().item() for p in encoder.parameters())

    for epoch in range(3):
        mel, labels = utterances(48, gen)
        for chunk in range(0, 48, 16):
            emb = encoder(mel[chunk:chunk + 16])
            logits = head(emb)
            loss = F.cross_entropy(logits, labels[chunk:chunk + 16])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = (logits.argmax(-1) == labels[32:]).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} last-batch acc {acc:.3f}")

    assert abs(sum(p.sum().item() for p in encoder.parameters()) - frozen_sum) < 1e-6
    print(f"head checksum {sum(p.sum().item() for p in head.parameters()):.4f}")


if __name__ == "__main__":
    main()
