"""Low-light object classification from simulated raw sensor images: LearnableISP
(isp.py) develops the raw frames, a small CNN classifies the developed images, and both
are optimised together."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from isp import LearnableISP

N_CLASSES, IMG, BATCH, STEPS = 3, 12, 16, 6
torch.manual_seed(0)


def to_display_range(img):
    """Clip developed images to the displayable range, as the eval pipeline does."""
    return img.clamp(0.0, 1.0)


def simulate_raw(gen):
    labels = torch.randint(0, N_CLASSES, (BATCH,), generator=gen)
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, IMG), torch.linspace(-1, 1, IMG), indexing="ij")
    shapes = torch.stack([(xs.abs() + ys.abs() < 0.7).float(),
                          (xs ** 2 + ys ** 2 < 0.5).float(),
                          ((xs.abs() < 0.25) | (ys.abs() < 0.25)).float()])
    scene = shapes[labels][:, None].expand(BATCH, 3, IMG, IMG)
    tint = torch.tensor([0.5, 0.9, 0.35])[None, :, None, None]     # greenish sensor response
    raw = 0.15 * scene * tint + 0.03 * torch.rand(BATCH, 3, IMG, IMG, generator=gen)
    return raw, labels


isp = LearnableISP()
classifier = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    nn.Linear(32, N_CLASSES),
)
optimizer = torch.optim.Adam([
    {"params": isp.parameters(), "lr": 1e-2},
    {"params": classifier.parameters(), "lr": 2e-3},
])
gen = torch.Generator().manual_seed(8)

for step in range(STEPS):
    raw, labels = simulate_raw(gen)
    developed = to_display_range(isp(raw))
    logits = classifier(developed)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1) == labels).float().mean().item()
    print(f"step {step}  loss {loss.item():.4f}  acc {acc:.2f}  {isp.describe()}")
