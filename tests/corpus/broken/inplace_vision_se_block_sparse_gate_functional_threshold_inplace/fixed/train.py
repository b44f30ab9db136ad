"""Texture classifier for 16x16 patches: a small CNN with squeeze-and-excitation blocks.
The SE gate is sparsified so that weakly gated channels are switched off entirely:
gates below GATE_FLOOR are zeroed (F.threshold)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
GATE_FLOOR = 0.2
N_CLASSES = 4
BATCH = 16


class SqueezeExcite(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        self.reduce = nn.Linear(channels, channels // reduction)
        self.expand = nn.Linear(channels // reduction, channels)

    def forward(self, x):
        squeezed = x.mean(dim=(2, 3))
        gate = torch.sigmoid(self.expand(F.relu(self.reduce(squeezed))))
        gate = F.threshold(gate, GATE_FLOOR, 0.0)
        return x * gate[:, :, None, None]


def conv_bn(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())


def texture_batch(n):
    """Stripes at four orientations plus noise; the orientation is the label."""
    labels = torch.randint(0, N_CLASSES, (n,))
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    angles = labels.float() * (torch.pi / N_CLASSES)
    phase = xx[None] * torch.cos(angles)[:, None, None] + yy[None] * torch.sin(angles)[:, None, None]
    stripes = torch.sin(phase * 1.3)
    images = stripes[:, None].repeat(1, 3, 1, 1) + 0.3 * torch.randn(n, 3, 16, 16)
    return images, labels


model = nn.Sequential(
    conv_bn(3, 16),
    SqueezeExcite(16),
    nn.MaxPool2d(2),
    conv_bn(16, 32),
    SqueezeExcite(32),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(32, N_CLASSES),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for step in range(6):
    images, labels = texture_batch(BATCH)
    logits = model(images)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1) == labels).float().mean().item()
    print(f"step {step} loss {loss.item():.4f} acc {acc:.2f}")

checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
print(f"param checksum {checksum:.4f}")
