"""Private training of a small CNN that flags malignant-looking dermoscopy patches.
Gradients are clipped and noised every step (DP-SGD style, batch-level for brevity)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from privacy_utils import clip_and_noise_, make_dp_compatible

MAX_NORM, NOISE, BATCH, STEPS = 1.0, 0.3, 32, 6


class LesionCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(16, 2)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def lesion_patches(n, gen):
    y = torch.randint(0, 2, (n,), generator=gen)
    x = 0.3 * torch.randn(n, 3, 16, 16, generator=gen)
    x[y == 1, 0, 5:11, 5:11] += 1.2
    return x, y


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
model = LesionCNN()
# per-sample clipping does not work with BatchNorm: swap in GroupNorm
# (before the optimizer, so that it holds the GroupNorm parameters)
model = make_dp_compatible(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for step in range(STEPS):
    x, y = lesion_patches(BATCH, gen)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    clip_and_noise_(model.parameters(), MAX_NORM, NOISE, BATCH, gen)
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    x, y = lesion_patches(128, gen)
    acc = (model(x).argmax(1) == y).float().mean()
print(f"held-out accuracy {acc.item():.3f}")
