"""Keyword spotting with a frozen "pre-trained" audio encoder: the encoder is frozen with
requires_grad_(False), kept in eval mode and run under no_grad; only the new head trains."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SAMPLES, KEYWORDS = 400, 4


class AudioEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 8, 25, stride=5), nn.BatchNorm1d(8), nn.GELU(),
            nn.Conv1d(8, 16, 9, stride=3), nn.BatchNorm1d(16), nn.GELU(),
        )

    def forward(self, wav):
        feats = self.conv(wav.unsqueeze(1))
        return torch.cat([feats.mean(-1), feats.amax(-1)], dim=1)


def keyword_batch(n):
    labels = torch.randint(0, KEYWORDS, (n,))
    t = torch.arange(SAMPLES) / 4000
    f = 300.0 + 200.0 * labels[:, None].float()
    wav = torch.sin(2 * torch.pi * f * t) * torch.hann_window(SAMPLES) + 0.2 * torch.randn(n, SAMPLES)
    return wav, labels


encoder = AudioEncoder()
encoder.requires_grad_(False)
encoder.eval()
head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, KEYWORDS))
optimizer = torch.optim.Adam(head.parameters(), lr=5e-3)

for step in range(6):
    wav, labels = keyword_batch(32)
    with torch.no_grad():
        emb = encoder(wav)
    logits = head(emb)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1) == labels).float().mean().item()
    print(f"step {step} loss {loss.item():.6f} acc {acc:.3f}")
print(f"encoder checksum {sum(p.sum().item() for p in encoder.parameters()):.6f}")
print(f"head checksum {sum(p.sum().item() for p in head.parameters()):.6f}")
