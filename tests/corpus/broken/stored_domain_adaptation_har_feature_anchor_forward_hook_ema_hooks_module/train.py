"""Human-activity recognition from wrist accelerometer windows (walk, sit,
stairs), adapted from a source wearer to a new wearer whose sensor sits at a
different angle. A forward hook on the encoder's last layer keeps the feature
statistics anchored during the adaptation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import FeatureAnchor

ACTIVITIES = ["walk", "sit", "stairs"]
WINDOW = 32


def windows(n, tilt, g):
    y = torch.randint(0, len(ACTIVITIES), (n,), generator=g)
    t = torch.arange(WINDOW).float()
    freq = torch.tensor([0.25, 0.0, 0.4])[y]
    amp = torch.tensor([1.0, 0.05, 1.4])[y]
    base = amp[:, None] * torch.sin(freq[:, None] * t[None, :])
    xyz = torch.stack([base, base * tilt, torch.full_like(base, 1.0 - tilt)], dim=1)
    return xyz + 0.1 * torch.randn(n, 3, WINDOW, generator=g), y


class HARNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(3, 16, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
            nn.Flatten(), nn.Linear(16, 24),
        )
        self.classifier = nn.Linear(24, len(ACTIVITIES))

    def forward(self, x):
        return self.classifier(torch.relu(self.encoder(x)))


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = HARNet()
    anchor = FeatureAnchor(width=24)
    model.encoder[4].register_forward_hook(anchor)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    lam = 0.1

    for phase, tilt in (("source", 0.0), ("target", 0.6)):
        for step in range(4):
            x, y = windows(16, tilt, g)
            loss = F.cross_entropy(model(x), y) + lam * anchor.penalty
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"{phase} step {step} loss {loss.item():.4f} drift {anchor.penalty.item():.4f}")


if __name__ == "__main__":
    main()
