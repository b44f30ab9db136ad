"""Supervised contrastive pretraining of a gesture-recognition encoder on synthetic
3-axis IMU windows (5 gesture classes), followed by a linear probe check."""
import torch
import torch.nn as nn

from losses import alignment, supervised_contrastive

torch.manual_seed(0)
N_CLASSES, WINDOW, BATCH = 5, 40, 30

prototypes = torch.randn(N_CLASSES, 3, WINDOW).cumsum(dim=2) * 0.3


def sample(n):
    y = torch.randint(0, N_CLASSES, (n,))
    x = prototypes[y] + 0.4 * torch.randn(n, 3, WINDOW)
    return x, y


encoder = nn.Sequential(
    nn.Conv1d(3, 16, 7, padding=3), nn.GELU(), nn.MaxPool1d(2),
    nn.Conv1d(16, 32, 5, padding=2), nn.GELU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
    nn.Linear(32, 32))
projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 16))
optimizer = torch.optim.Adam([*encoder.parameters(), *projector.parameters()], lr=2e-3)

for step in range(6):
    x, y = sample(BATCH)
    feats = projector(encoder(x))
    loss = supervised_contrastive(feats, y, temperature=0.2)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} supcon {loss.item():.4f} align {alignment(feats, y).item():.4f}")

with torch.no_grad():
    x, y = sample(100)
    emb = encoder(x)
    centroids = torch.stack([emb[y == c].mean(0) for c in range(N_CLASSES)])
    acc = (torch.cdist(emb, centroids).argmin(1) == y).float().mean().item()
print(f"nearest-centroid accuracy {acc:.3f}")
